import { describe, expect, it } from 'vitest';
import {
  datadogId,
  extractParentTrace,
  parseDatadogHeaders,
  parseTraceparent,
  traceLogBindings,
} from './trace-context.js';

// What @datadog/browser-rum 7 sends with propagatorTypes ['tracecontext', 'datadog'] for one
// fetch: the same 64-bit trace id as hex (zero-padded to 128 bits) and as a decimal.
const RUM_HEADERS = {
  traceparent: '00-0000000000000000576cf2ef9de2b2a4-5cb2a7e3e1b0a1f4-01',
  tracestate: 'dd=s:1;o:rum',
  'x-datadog-trace-id': BigInt('0x576cf2ef9de2b2a4').toString(10),
  'x-datadog-parent-id': BigInt('0x5cb2a7e3e1b0a1f4').toString(10),
  'x-datadog-origin': 'rum',
  'x-datadog-sampling-priority': '1',
  baggage: 'session.id=0b5d2f0e-1111-4222-8333-944445555666,user.id=a1b2c3d4',
};

describe('traceparent (W3C Trace Context)', () => {
  it('reads the trace id, parent span and sampled flag', () => {
    expect(parseTraceparent(RUM_HEADERS.traceparent)).toEqual({
      traceId: '0000000000000000576cf2ef9de2b2a4',
      parentSpanId: '5cb2a7e3e1b0a1f4',
      sampled: true,
      propagator: 'tracecontext',
    });
    expect(
      parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00')?.sampled,
    ).toBe(false);
  });

  it('accepts a later version with extra fields', () => {
    expect(
      parseTraceparent('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-ever')
        ?.traceId,
    ).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it.each([
    ['absent', undefined],
    ['two headers', ['00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01']],
    ['upper case', '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01'],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`],
    ['an all-zero parent', `00-4bf92f3577b34da6a3ce929d0e0e4736-${'0'.repeat(16)}-01`],
    ['version ff', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['version 00 with extra fields', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x'],
    ['a short trace id', '00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01'],
  ])('ignores %s', (_case, value) => {
    expect(parseTraceparent(value)).toBeNull();
  });
});

describe('x-datadog-* headers', () => {
  it('turns the decimal ids into hex, with the upper 64 bits from _dd.p.tid', () => {
    expect(
      parseDatadogHeaders({
        'x-datadog-trace-id': BigInt('0x576ea1c1b6e3d9a4').toString(10),
        'x-datadog-parent-id': BigInt('0x5cb2a7e3e1b0a1f4').toString(10),
        'x-datadog-sampling-priority': '1',
      }),
    ).toEqual({
      traceId: '0000000000000000576ea1c1b6e3d9a4',
      parentSpanId: '5cb2a7e3e1b0a1f4',
      sampled: true,
      propagator: 'datadog',
    });
    expect(
      parseDatadogHeaders({
        'x-datadog-trace-id': '1',
        'x-datadog-parent-id': '2',
        'x-datadog-sampling-priority': '-1',
        'x-datadog-tags': '_dd.p.dm=-4,_dd.p.tid=66a3f3cc00000000',
      }),
    ).toMatchObject({ traceId: '66a3f3cc000000000000000000000001', sampled: false });
  });

  it.each([
    ['a zero trace id', '0', '2'],
    ['a hex trace id', 'abc', '2'],
    ['an id over 64 bits', '18446744073709551616', '2'],
    ['no parent', '1', undefined],
  ])('ignores %s', (_case, traceId, parentId) => {
    expect(
      parseDatadogHeaders({ 'x-datadog-trace-id': traceId, 'x-datadog-parent-id': parentId }),
    ).toBeNull();
  });
});

describe('extractParentTrace and log bindings', () => {
  it('prefers traceparent and agrees with the Datadog headers of the same request', () => {
    const fromW3c = extractParentTrace(RUM_HEADERS);
    const { traceparent: _, ...datadogOnly } = RUM_HEADERS;
    const fromDatadog = extractParentTrace(datadogOnly);
    expect(fromW3c?.propagator).toBe('tracecontext');
    expect(fromDatadog?.propagator).toBe('datadog');
    expect(fromDatadog?.traceId).toBe(fromW3c?.traceId);
    expect(fromDatadog?.parentSpanId).toBe(fromW3c?.parentSpanId);
  });

  it("logs W3C hex ids and Datadog's decimal lower 64 bits", () => {
    expect(traceLogBindings('0000000000000000576cf2ef9de2b2a4', '00000000000000ff')).toEqual({
      trace_id: '0000000000000000576cf2ef9de2b2a4',
      span_id: '00000000000000ff',
      dd: { trace_id: RUM_HEADERS['x-datadog-trace-id'], span_id: '255' },
    });
    expect(datadogId('ffffffffffffffffffffffffffffffff')).toBe('18446744073709551615');
  });
});
