/** An event kept whole (telemetry, logs, unknown types) as its intake_events row. */
export interface KeptEventRow {
  track: string;
  event_type: string | null;
  session_id: string | null;
  payload: string;
  received_at: number;
}

/** Where an event carries its session id: RUM events in `session.id`, logs in `session_id`. */
function sessionIdOf(
  event: Record<string, unknown>,
): { field: 'session.id' | 'session_id'; id: string } | null {
  const session = event.session;
  if (typeof session === 'object' && session !== null) {
    const id = (session as { id?: unknown }).id;
    if (typeof id === 'string') return { field: 'session.id', id };
  }
  return typeof event.session_id === 'string'
    ? { field: 'session_id', id: event.session_id }
    : null;
}

/**
 * The columns an event kept whole is found by (its type and session id), each with the field it
 * came from; the rest of the event is kept as its JSON text.
 */
export function keptEventColumns(event: Record<string, unknown>): {
  type: string | null;
  session: { field: 'session.id' | 'session_id'; id: string } | null;
} {
  return { type: typeof event.type === 'string' ? event.type : null, session: sessionIdOf(event) };
}

/** The intake_events row of an event kept whole. */
export function keptEventRow(
  track: string,
  event: Record<string, unknown>,
  receivedAt: number,
): KeptEventRow {
  const { type, session } = keptEventColumns(event);
  return {
    track,
    event_type: type,
    session_id: session?.id ?? null,
    payload: JSON.stringify(event),
    received_at: receivedAt,
  };
}
