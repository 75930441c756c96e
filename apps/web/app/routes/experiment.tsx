import { data, Link } from 'react-router';
import type { Route } from './+types/experiment';
import type { ExperimentReport, SampleRatioCheck } from '@showroom/contracts/experiments';
// Constants only: the schema module would grow the shop's shared typebox chunk.
import { SRM_P_THRESHOLD } from '@showroom/contracts/experiment-constants';
import { ApiResponseError, apiGet } from '../lib/api.server';
import {
  formatCents,
  formatCentsDifference,
  formatInterval,
  formatLift,
  formatMinute,
  formatP,
  formatPercent,
  formatPoints,
} from '../lib/experiments';
import type { PageErrorData } from '../lib/page-errors';
import { pageMeta } from '../lib/page-meta';
import { LineChart } from '../components/line-chart';
import { ScrollRegion } from '../components/scroll-region';
import stylesheet from '../styles/inspector.css?url';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }];

export function meta({ params }: Route.MetaArgs) {
  return pageMeta(
    `Experiment ${params.flagKey}`,
    'Conversion and revenue per variant with 95 % intervals, lift against the control and a sample-ratio check.',
  );
}

export async function loader({ params, request }: Route.LoaderArgs) {
  const since = new URL(request.url).searchParams.get('since');
  const query = since !== null && /^\d+$/.test(since) ? `?since=${since}` : '';
  try {
    return await apiGet<ExperimentReport>(
      `/experiments/${encodeURIComponent(params.flagKey)}${query}`,
      request,
    );
  } catch (err) {
    if (err instanceof ApiResponseError && (err.status === 404 || err.status === 400)) {
      throw data<PageErrorData>(
        { message: `No experiment ${params.flagKey}: the flag service has no such flag` },
        { status: 404 },
      );
    }
    throw err;
  }
}

/** The sample-ratio verdict: a visible warning when the check trips. */
function SampleRatio({ check }: { check: SampleRatioCheck | null }) {
  if (!check) {
    return (
      <p className="muted" data-testid="srm-verdict" data-srm="not-checked">
        Sample ratio not checked: no allocation splits subjects between two or more observed
        variants.
      </p>
    );
  }
  const rows = Object.keys(check.expected);
  const total = rows.reduce((sum, variant) => sum + (check.observed[variant] ?? 0), 0);
  const figures = `χ² = ${check.chiSquare.toFixed(2)} (${check.degreesOfFreedom} df), p ${check.pValue < 0.001 ? '' : '= '}${formatP(check.pValue)}`;
  return (
    <div data-testid="srm-verdict" data-srm={check.mismatch ? 'mismatch' : 'ok'}>
      {check.mismatch ? (
        <p className="form-error experiment__warning" role="alert">
          Sample-ratio mismatch in allocation <strong>{check.allocationKey}</strong>: {figures},
          below {SRM_P_THRESHOLD}. Subjects did not split as configured — assignment or exposure
          logging is off; do not trust the results below.
        </p>
      ) : (
        <p>
          Sample ratio as configured in allocation <strong>{check.allocationKey}</strong>: {figures}{' '}
          (a mismatch is flagged below p = {SRM_P_THRESHOLD}).
        </p>
      )}
      <p className="muted">
        {rows
          .map(
            (variant) =>
              `${variant}: ${check.observed[variant] ?? 0} of ${total} observed, ${formatPercent(check.expected[variant] ?? 0)} expected`,
          )
          .join(' · ')}
      </p>
    </div>
  );
}

/** /experiments/:flagKey: the results of one experiment per variant. */
export default function ExperimentPage({ loaderData: report }: Route.ComponentProps) {
  const currency = report.currencies.length > 1 ? ` (mixed: ${report.currencies.join(', ')})` : '';
  return (
    <section className="inspector experiment">
      <header className="inspector__header">
        <h1>Experiment: {report.flagKey}</h1>
        <p className="muted" data-testid="experiment-summary">
          {report.source === 'client' ? 'The shop’s client-side experiment' : 'Flag service flag'} ·
          control <strong>{report.control}</strong> · conversion = a{' '}
          <code>{report.conversionEvent}</code> tracking event after the first exposure ·{' '}
          {report.since === null
            ? 'all stored exposures'
            : `exposures since ${formatMinute(report.since)} UTC`}{' '}
          · computed {formatMinute(report.generatedAt)} UTC ·{' '}
          <Link to="/experiments">all experiments</Link>
        </p>
      </header>

      <h2>Sample ratio</h2>
      <SampleRatio check={report.sampleRatio} />

      <h2>Results per variant</h2>
      <ScrollRegion label="Results per variant">
        <table className="inspector__table" data-testid="experiment-table">
          <caption className="muted">
            95 % intervals in brackets; lift and p-values against the control{currency}.
          </caption>
          <thead>
            <tr>
              <th scope="col">Variant</th>
              <th scope="col">Exposed</th>
              <th scope="col">Conversions</th>
              <th scope="col">Conversion rate</th>
              <th scope="col">Revenue per subject</th>
              <th scope="col">Conversion lift</th>
              <th scope="col">p-value</th>
              <th scope="col">Revenue lift</th>
              <th scope="col">Revenue p-value</th>
            </tr>
          </thead>
          <tbody>
            {report.variants.map((row) => (
              <tr key={row.variant} data-variant={row.variant}>
                <th scope="row">
                  {row.variant}{' '}
                  {row.isControl ? (
                    <span className="badge" data-testid="control-badge">
                      control
                    </span>
                  ) : null}
                </th>
                <td data-testid="exposed">{row.exposed}</td>
                <td data-testid="conversions">{row.conversions}</td>
                <td data-testid="conversion-rate">
                  {formatPercent(row.conversionRate.estimate)}{' '}
                  <span className="muted">
                    {formatInterval(row.conversionRate, (v) => formatPercent(v))}
                  </span>
                </td>
                <td data-testid="revenue-per-subject">
                  {formatCents(row.revenuePerSubjectCents.estimate)}{' '}
                  <span className="muted">
                    {formatInterval(row.revenuePerSubjectCents, formatCents)}
                  </span>
                </td>
                <td data-testid="conversion-lift">
                  {row.conversionLift ? (
                    <>
                      {formatPoints(row.conversionLift.absolute.estimate)}{' '}
                      <span className="muted">
                        {formatInterval(row.conversionLift.absolute, formatPoints)}
                      </span>{' '}
                      ({formatLift(row.conversionLift.relative.estimate)})
                    </>
                  ) : (
                    '–'
                  )}
                </td>
                <td data-testid="p-value">{formatP(row.conversionLift?.pValue ?? null)}</td>
                <td data-testid="revenue-lift">
                  {row.revenueLift ? (
                    <>
                      {formatCentsDifference(row.revenueLift.absolute.estimate)}{' '}
                      <span className="muted">
                        {formatInterval(row.revenueLift.absolute, formatCentsDifference)}
                      </span>{' '}
                      ({formatLift(row.revenueLift.relative.estimate)})
                    </>
                  ) : (
                    '–'
                  )}
                </td>
                <td data-testid="revenue-p-value">{formatP(row.revenueLift?.pValue ?? null)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>

      <h2>Conversion over time</h2>
      <LineChart
        testId="conversion-series"
        title={`Cumulative conversion rate per variant: ${report.flagKey}`}
        description="For each variant, the subjects converted so far divided by the subjects exposed so far, from the first exposure to the latest exposure or purchase."
        series={report.series.map((series) => ({
          label: series.variant,
          points: series.points.map((point) => ({ x: point.at, y: point.rate })),
        }))}
        formatY={(y) => formatPercent(y, 0)}
        formatX={(x) => `${formatMinute(x)} UTC`}
      />

      <h2>Methods</h2>
      <ul className="experiment__methods" data-testid="methods">
        <li>
          A subject counts in the variant of its <strong>first exposure</strong> to the flag (a
          later exposure to another variant, after a context change, does not move it); it converts
          with a <code>{report.conversionEvent}</code> tracking event at or after that first
          exposure.
        </li>
        <li>
          Conversion rate: share of exposed subjects who converted, with a 95 %{' '}
          <strong>Wilson score interval</strong>.
        </li>
        <li>
          Revenue per exposed subject: mean purchase revenue after the first exposure (0 for
          non-buyers), with a 95 % <strong>normal (central-limit) interval</strong> from the sample
          variance.
        </li>
        <li>
          Conversion lift against the control: difference with a 95 %{' '}
          <strong>unpooled normal interval</strong>, relative lift with a delta-method interval, and
          the two-sided p-value of the <strong>pooled two-proportion z-test</strong>. Revenue lift:
          difference of means with a <strong>Welch (unequal-variance) normal</strong> interval and
          test.
        </li>
        <li>
          Sample-ratio mismatch: <strong>chi-square goodness of fit</strong> of the subjects first
          exposed under the split allocation with the most subjects against its configured shares
          (restricted to the variants observed there); a warning below p = {SRM_P_THRESHOLD}.
        </li>
        <li>
          Distributions (normal quantile and CDF, chi-square CDF) from the{' '}
          <strong>@stdlib/stats-base-dists-*</strong> packages of stdlib.
        </li>
      </ul>
    </section>
  );
}
