import { useId, type ReactNode } from 'react';

export interface Bar {
  label: string;
  value: number;
  /** Text shown after the bar; defaults to the value. */
  display?: string;
}

const ROW_HEIGHT = 28;
const LABEL_WIDTH = 120;
const BAR_WIDTH = 200;
const VALUE_WIDTH = 200;
const WIDTH = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH;

/**
 * Horizontal bars as inline SVG (no chart library): one row per bar, scaled to `max` (default:
 * the largest value). The figure's caption and each row's text make it readable without
 * the drawing; `data-*` attributes let tests read the numbers.
 */
export function BarChart({
  title,
  bars,
  max,
  testId,
  annotations,
}: {
  title: string;
  bars: Bar[];
  max?: number;
  testId?: string;
  /** Shown under the bars: the changes that explain them (change markers). */
  annotations?: ReactNode;
}) {
  const titleId = useId();
  const scale = max ?? Math.max(1, ...bars.map((bar) => bar.value));
  const height = Math.max(1, bars.length) * ROW_HEIGHT;
  return (
    <figure className="bar-chart" data-testid={testId}>
      <figcaption id={titleId}>{title}</figcaption>
      {bars.length === 0 ? (
        <p className="muted">No data yet.</p>
      ) : (
        <svg
          role="img"
          aria-labelledby={titleId}
          viewBox={`0 0 ${WIDTH} ${height}`}
          width={WIDTH}
          height={height}
        >
          {bars.map((bar, index) => {
            const y = index * ROW_HEIGHT;
            const width = scale > 0 ? Math.max(0, Math.min(1, bar.value / scale)) * BAR_WIDTH : 0;
            return (
              <g key={bar.label} data-label={bar.label} data-value={bar.value}>
                <text x={LABEL_WIDTH - 8} y={y + ROW_HEIGHT / 2} textAnchor="end" dy="0.35em">
                  {bar.label}
                </text>
                <rect
                  className="bar-chart__track"
                  x={LABEL_WIDTH}
                  y={y + 5}
                  width={BAR_WIDTH}
                  height={ROW_HEIGHT - 10}
                  rx={3}
                />
                <rect
                  className="bar-chart__bar"
                  x={LABEL_WIDTH}
                  y={y + 5}
                  width={width}
                  height={ROW_HEIGHT - 10}
                  rx={3}
                />
                <text x={LABEL_WIDTH + BAR_WIDTH + 8} y={y + ROW_HEIGHT / 2} dy="0.35em">
                  {bar.display ?? String(bar.value)}
                </text>
              </g>
            );
          })}
        </svg>
      )}
      {annotations}
    </figure>
  );
}
