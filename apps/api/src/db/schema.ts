import type { ColumnType, Generated } from 'kysely';

export interface DepartmentTable {
  slug: string;
  name: string;
  description: string;
  position: number;
}

export interface ProductTable {
  id: number;
  department_slug: string;
  name: string;
  kind: string;
  description: string;
  price_cents: number;
  stock: number;
  /** JSON array of material names. */
  materials: string;
  colour: string;
  /** colourName(colour) of @showroom/contracts/colours (migration 006-search). */
  colour_name: ColumnType<string, string | undefined, string>;
  width_cm: number;
  depth_cm: number;
  height_cm: number;
}

export interface SpecialEditionTable {
  product_id: number;
  name: string;
  description: string;
  price_cents: number;
  badge: string;
  stock: number;
}

/** Shop tables (migration 003-shop). Booleans are 0/1 integers so SQLite and PostgreSQL agree. */
export interface SessionTable {
  id: string;
  created_at: string;
  updated_at: string;
  shopper_id: string | null;
  shopper_list: string | null;
  shopper_name: string | null;
  shopper_email: string | null;
  shopper_team: string | null;
  shopper_use_discount: number;
  shopper_use_new_checkout_flow: number;
  /** 'browser' (the id is a cookie) or 'account' (an account's data owner; migration 005). */
  kind: ColumnType<'browser' | 'account', 'browser' | 'account' | undefined>;
  /** On a browser session: the account signed in there. */
  account_id: ColumnType<string | null, string | null | undefined>;
  /** Profile edits of a session without an account (an account keeps its own). */
  profile_name: ColumnType<string | null, string | null | undefined>;
  profile_email: ColumnType<string | null, string | null | undefined>;
  address1: ColumnType<string | null, string | null | undefined>;
  address2: ColumnType<string | null, string | null | undefined>;
  city: ColumnType<string | null, string | null | undefined>;
  postal_code: ColumnType<string | null, string | null | undefined>;
  country: ColumnType<string | null, string | null | undefined>;
}

/** Accounts, codes, the outbox and loyalty (migration 005-accounts). */
export interface AccountTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  owner_session_id: string;
  team: string;
  use_discount: number;
  use_new_checkout_flow: number;
  created_at: string;
  updated_at: string;
}

export interface VerificationTable {
  session_id: string;
  purpose: 'signup' | 'email-change';
  email: string;
  code_hash: string;
  attempts: number;
  expires_at: string;
  resend_after: string;
  name: string | null;
  password_hash: string | null;
  created_at: string;
}

export interface OutboxMessageTable {
  id: string;
  session_id: string;
  to_address: string;
  subject: string;
  body_text: string;
  created_at: string;
}

export interface LoyaltyMembershipTable {
  id: string;
  session_id: string;
  points: number;
  birthday: string | null;
  joined_at: string;
}

export interface LoyaltyPointsTable {
  id: string;
  membership_id: string;
  points: number;
  reason: 'order' | 'welcome';
  order_id: string | null;
  created_at: string;
}

export interface CartLineTable {
  id: string;
  session_id: string;
  product_id: number;
  edition: 'standard' | 'special';
  quantity: number;
  created_at: string;
}

export interface PaymentMethodTable {
  id: string;
  session_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  token: string;
  is_default: ColumnType<number, number | undefined, number>;
  created_at: string;
}

export interface OrderTable {
  id: string;
  session_id: string;
  shopper_id: string | null;
  status: string;
  currency: string;
  subtotal_cents: number;
  discount_cents: number;
  shipping_cents: number;
  total_cents: number;
  shipping_name: string;
  shipping_email: string;
  shipping_address1: string;
  shipping_address2: string | null;
  shipping_city: string;
  shipping_postal_code: string;
  shipping_country: string;
  card_brand: string;
  card_last4: string;
  instant_pay_variant: string | null;
  checkout_flow: string | null;
  created_at: string;
}

export interface OrderLineTable {
  id: string;
  order_id: string;
  position: number;
  product_id: number;
  edition: string;
  name: string;
  unit_price_cents: number;
  quantity: number;
  line_total_cents: number;
}

export interface PaymentTable {
  id: string;
  order_id: string;
  session_id: string;
  amount_cents: number;
  currency: string;
  status: string;
  method: string;
  card_brand: string;
  card_last4: string;
  gateway_charge_id: string;
  created_at: string;
}

export interface IdempotencyKeyTable {
  session_id: string;
  key: string;
  request_fingerprint: string;
  status_code: number | null;
  response_body: string | null;
  created_at: string;
}

/**
 * Flag service and intake tables (migration 002-flags). Epoch-millisecond columns are bigint:
 * better-sqlite3 reads them as numbers, pg as strings, so readers wrap them in Number().
 */
export type EpochMillisColumn = ColumnType<number | string, number, number>;

export interface FlagConfigurationTable {
  id: string;
  created_at: EpochMillisColumn;
  environment: string;
  source: string;
}

export interface FlagTable {
  key: string;
  /** The flag's UFC JSON (Datadog dialect). */
  definition: string;
  /** Hash of the definition as last loaded from the definition files. */
  source_hash: string;
  /** Bumped on every write; operator changes update only the revision they read. */
  revision: number;
  updated_at: EpochMillisColumn;
}

export interface FlagAuditTable {
  id: Generated<number>;
  flag_key: string | null;
  action: string;
  operator: string;
  at: EpochMillisColumn;
  before: string | null;
  after: string | null;
  configuration_created_at: EpochMillisColumn;
}

export interface FlagExposureTable {
  id: Generated<number>;
  flag_key: string;
  allocation_key: string;
  variant_key: string;
  subject_id: string;
  subject_attributes: string;
  timestamp: EpochMillisColumn;
  service: string | null;
  received_at: EpochMillisColumn;
}

export interface FlagEvaluationTable {
  id: Generated<number>;
  flag_key: string;
  variant_key: string | null;
  allocation_key: string | null;
  targeting_rule_key: string | null;
  targeting_key: string | null;
  evaluation_count: number;
  first_evaluation: EpochMillisColumn;
  last_evaluation: EpochMillisColumn;
  /** 0/1. */
  runtime_default_used: number;
  error_message: string | null;
  context: string | null;
  timestamp: EpochMillisColumn;
  received_at: EpochMillisColumn;
}

export interface IntakeEventTable {
  id: Generated<number>;
  /** The forwarded intake path's last segment: rum, replay, logs… */
  track: string;
  event_type: string | null;
  session_id: string | null;
  payload: string;
  received_at: EpochMillisColumn;
}

/**
 * Browser monitoring (migration 004-monitoring). Dates are epoch ms, durations nanoseconds, both
 * bigint: wrap reads in Number() (pg answers strings).
 */
export type BigintColumn = ColumnType<number | string, number, number>;

export interface RumSessionTable {
  id: string;
  application_id: string | null;
  first_seen: BigintColumn;
  last_seen: BigintColumn;
  usr_id: string | null;
  usr_name: string | null;
  usr_email: string | null;
  usr_team: string | null;
  service: string | null;
  version: string | null;
  /** 0/1: a replay segment arrived for this session. */
  has_replay: ColumnType<number, number | undefined, number>;
  received_at: BigintColumn;
  /** The scenario whose link opened the session (its events' `context.scenario`), migration 007. */
  scenario: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The highest `_dd.document_version` of each view. */
export interface RumViewTable {
  id: string;
  session_id: string;
  document_version: number;
  date: BigintColumn;
  url: string | null;
  name: string | null;
  loading_time: BigintColumn | null;
  first_contentful_paint: BigintColumn | null;
  largest_contentful_paint: BigintColumn | null;
  interaction_to_next_paint: BigintColumn | null;
  cumulative_layout_shift: number | null;
  time_spent: BigintColumn | null;
  action_count: number;
  error_count: number;
  usr_id: string | null;
  /** JSON object, or null when the view carried none. */
  feature_flags: string | null;
  payload: string;
  received_at: BigintColumn;
}

/** Actions, errors, vitals, resources, long tasks and replay segments. */
export interface RumEventTable {
  id: Generated<number>;
  event_key: string | null;
  session_id: string | null;
  view_id: string | null;
  event_type: string;
  date: BigintColumn;
  name: string | null;
  usr_id: string | null;
  feature_flags: string | null;
  payload: string;
  received_at: BigintColumn;
}

/** Each variant of each flag a session's events carried, with when it was first and last seen. */
export interface RumSessionFlagTable {
  session_id: string;
  flag_key: string;
  variant: string;
  first_seen: BigintColumn;
  last_seen: BigintColumn;
}

export interface Database {
  departments: DepartmentTable;
  products: ProductTable;
  special_editions: SpecialEditionTable;
  sessions: SessionTable;
  cart_lines: CartLineTable;
  payment_methods: PaymentMethodTable;
  orders: OrderTable;
  order_lines: OrderLineTable;
  payments: PaymentTable;
  idempotency_keys: IdempotencyKeyTable;
  flag_configurations: FlagConfigurationTable;
  flags: FlagTable;
  flag_audit: FlagAuditTable;
  flag_exposures: FlagExposureTable;
  flag_evaluations: FlagEvaluationTable;
  intake_events: IntakeEventTable;
  rum_sessions: RumSessionTable;
  rum_views: RumViewTable;
  rum_events: RumEventTable;
  rum_session_flags: RumSessionFlagTable;
  accounts: AccountTable;
  verifications: VerificationTable;
  outbox_messages: OutboxMessageTable;
  loyalty_memberships: LoyaltyMembershipTable;
  loyalty_points: LoyaltyPointsTable;
  scenario_runs: ScenarioRunTable;
  change_markers: ChangeMarkerTable;
  rate_limits: RateLimitTable;
  traffic_control: TrafficControlTable;
  tracking_events: TrackingEventTable;
  flag_guards: FlagGuardTable;
  autopilot: AutopilotTable;
}

/** A scenario that changed flags, from its start to its stop (migration 007-scenarios). */
export interface ScenarioRunTable {
  id: Generated<number>;
  scenario_id: string;
  started_at: EpochMillisColumn;
  started_by: string;
  stopped_at: ColumnType<number | string | null, number | null | undefined, number | null>;
  stopped_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON: `FlagRestore[]`, each changed flag's state before the run. */
  restore: string;
}

/** A scenario started or stopped, a new build (flag changes are `flag_audit` rows). */
export interface ChangeMarkerTable {
  id: Generated<number>;
  kind: string;
  subject: string;
  action: string;
  operator: string;
  at: EpochMillisColumn;
  before: string | null;
  after: string | null;
  /** JSON array of flag keys. */
  flag_keys: string;
}

/** A rate-limit counter: hits of one route by one client in the window that started at `window_start`. */
export interface RateLimitTable {
  key: string;
  window_start: EpochMillisColumn;
  hits: number;
}

/** The traffic generators' control (one row, `default`): JSON profile fields. */
export interface TrafficControlTable {
  id: string;
  control: string;
  updated_at: EpochMillisColumn;
  updated_by: string;
}

/** What the shop reported through OpenFeature `track()` (migration 010-experiments). */
export interface TrackingEventTable {
  id: Generated<number>;
  targeting_key: string;
  name: string;
  /** Integer cents (`value`), or null. */
  value_cents: ColumnType<number | string | null, number | null, number | null>;
  currency: string | null;
  /** JSON object of flat details, or null. */
  details: string | null;
  timestamp: EpochMillisColumn;
  received_at: EpochMillisColumn;
}

/** A flag's guarded rollout (migration 012-guards): definition JSON and the checker's state. */
export interface FlagGuardTable {
  flag_key: string;
  definition: string;
  status: string;
  step_index: number;
  step_started_at: EpochMillisColumn;
  percentage: number | null;
  last_check: string | null;
  last_check_at: ColumnType<number | string | null, number | null, number | null>;
  tripped_at: ColumnType<number | string | null, number | null, number | null>;
  version: number;
  created_at: EpochMillisColumn;
  created_by: string;
}

type NullableBigint = ColumnType<number | string | null, number | null | undefined, number | null>;
type NullableText = ColumnType<string | null, string | null | undefined, string | null>;

/** The autopilot's state (one row, `default`; migration 011-autopilot). */
export interface AutopilotTable {
  id: string;
  status: string;
  run: number;
  profile_name: NullableText;
  /** JSON: the AutopilotProfile it runs. */
  profile: NullableText;
  seed: NullableBigint;
  started_at: NullableBigint;
  started_by: NullableText;
  paused_at: NullableBigint;
  paused_ms: BigintColumn;
  next_step: number;
  lease_owner: NullableText;
  lease_until: NullableBigint;
  updated_at: EpochMillisColumn;
}
