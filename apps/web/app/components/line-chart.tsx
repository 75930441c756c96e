import { useId } from 'react';

export interface LineSeries {
  label: string;
  points: { x: number; y: number | null }[];
}

const WIDTH = 560;
const HEIGHT = 220;
const PAD = { top: 12, right: 16, bottom: 28, left: 52 };
/** Series colours: distinct in hue and lightness, so they read in greyscale too. */
const COLOURS = ['#1f5f8b', '#c0392b', '#2f7d32', '#8e44ad', '#b7791f', '#4a4a4a'];

/**
 * Lines over time as inline SVG (no chart library, like bar-chart.tsx): one polyline per series,
 * y from 0 to the largest value. The figure's caption, the SVG's title and description, and the
 * legend make it readable without the drawing; `data-*` attributes let tests read the numbers.
 */
export function LineChart({
  title,
  description,
  series,
  formatY,
  formatX,
  testId,
}: {
  title: string;
  description: string;
  series: LineSeries[];
  formatY: (y: number) => string;
  formatX: (x: number) => string;
  testId?: string;
}) {
  const titleId = useId();
  const descId = useId();
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = series.flatMap((s) => s.points.flatMap((p) => (p.y === null ? [] : [p.y])));
  if (xs.length === 0) {
    return (
      <figure className="line-chart" data-testid={testId}>
        <figcaption>{title}</figcaption>
        <p className="muted">No data yet.</p>
      </figure>
    );
  }
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const maxY = Math.max(...ys, 0) || 1;
  const x = (value: number) =>
    PAD.left +
    (maxX > minX ? ((value - minX) / (maxX - minX)) * (WIDTH - PAD.left - PAD.right) : 0);
  const y = (value: number) =>
    HEIGHT - PAD.bottom - (value / maxY) * (HEIGHT - PAD.top - PAD.bottom);
  return (
    <figure className="line-chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <svg
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        preserveAspectRatio="xMinYMin meet"
      >
        <title id={titleId}>{title}</title>
        <desc id={descId}>{description}</desc>
        <line className="line-chart__axis" x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={y(0)} />
        <line
          className="line-chart__axis"
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={y(0)}
          y2={y(0)}
        />
        {[0, maxY / 2, maxY].map((tick) => (
          <text key={tick} x={PAD.left - 6} y={y(tick)} dy="0.35em" textAnchor="end">
            {formatY(tick)}
          </text>
        ))}
        <text x={PAD.left} y={HEIGHT - 8}>
          {formatX(minX)}
        </text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 8} textAnchor="end">
          {formatX(maxX)}
        </text>
        {series.map((s, index) => {
          const drawn = s.points.filter((p): p is { x: number; y: number } => p.y !== null);
          return (
            <polyline
              key={s.label}
              className="line-chart__line"
              data-series={s.label}
              data-points={drawn.length}
              data-last={drawn.at(-1)?.y}
              fill="none"
              stroke={COLOURS[index % COLOURS.length]}
              strokeWidth={2}
              strokeDasharray={index % 2 === 1 ? '6 3' : undefined}
              points={drawn.map((p) => `${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join(' ')}
            />
          );
        })}
      </svg>
      <ul className="line-chart__legend" aria-label="Legend">
        {series.map((s, index) => {
          const last = s.points.filter((p) => p.y !== null).at(-1);
          return (
            <li key={s.label}>
              <span
                className="line-chart__swatch"
                style={{ background: COLOURS[index % COLOURS.length] }}
                aria-hidden="true"
              />
              {s.label}: {last?.y == null ? '–' : formatY(last.y)}
            </li>
          );
        })}
      </ul>
    </figure>
  );
}
