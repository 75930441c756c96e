import { Link } from 'react-router';
import type { Route } from './+types/experiments';
import type { ExperimentList } from '@showroom/contracts/experiments';
import { apiGet } from '../lib/api.server';
import { pageMeta } from '../lib/page-meta';
import { ScrollRegion } from '../components/scroll-region';
import stylesheet from '../styles/inspector.css?url';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }];

export function meta() {
  return pageMeta(
    'Experiments',
    'The flags that split shoppers between variants, and the shop’s instant_pay experiment.',
  );
}

export async function loader({ request }: Route.LoaderArgs) {
  return apiGet<ExperimentList>('/experiments', request);
}

/** /experiments: every experiment with its exposed subjects; each links to its results. */
export default function ExperimentsPage({ loaderData }: Route.ComponentProps) {
  const { experiments } = loaderData;
  return (
    <section className="inspector">
      <header className="inspector__header">
        <h1>Experiments</h1>
        <p className="muted">
          Flags whose allocations serve more than one variant, and instant_pay (the shop’s own).
          Back to the <Link to="/inspector">session inspector</Link>.
        </p>
      </header>
      <ScrollRegion label="Experiments">
        <table className="inspector__table" data-testid="experiment-list">
          <thead>
            <tr>
              <th scope="col">Flag</th>
              <th scope="col">Source</th>
              <th scope="col">Variants</th>
              <th scope="col">Control</th>
              <th scope="col">Exposed subjects</th>
            </tr>
          </thead>
          <tbody>
            {experiments.map((experiment) => (
              <tr key={experiment.flagKey} data-flag={experiment.flagKey}>
                <td>
                  <Link to={`/experiments/${encodeURIComponent(experiment.flagKey)}`}>
                    {experiment.flagKey}
                  </Link>
                </td>
                <td>{experiment.source === 'client' ? 'shop (client-side)' : 'flag service'}</td>
                <td>{experiment.variants.join(', ')}</td>
                <td>{experiment.control}</td>
                <td data-testid="exposed-subjects">{experiment.exposedSubjects}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}
