// The benchmark report: one table (printed, and written as Markdown) and the raw JSON.
import { summarize } from './stats.mjs';

/**
 * A row is one figure measured several times:
 *   { part, name, unit, samples: number[], ratio?: { of, samples }, budget?, note? }
 * budget = { on: 'value' | 'ratio', op: '>=' | '<=', value, text } is judged on the median.
 */
export function judge(row) {
  const value = summarize(row.samples);
  const ratio = row.ratio ? summarize(row.ratio.samples) : undefined;
  let met;
  if (row.budget) {
    const subject = row.budget.on === 'ratio' ? ratio?.median : value.median;
    met =
      subject !== undefined && Number.isFinite(subject)
        ? row.budget.op === '>='
          ? subject >= row.budget.value
          : subject <= row.budget.value
        : false;
  }
  return { ...row, value, ratioSummary: ratio, met };
}

function format(number, unit) {
  if (!Number.isFinite(number)) return '–';
  if (unit === 'score') return number.toFixed(2);
  // Three decimals below 1, so a ratio just under its budget (0.347 against 0.35) does not
  // print as the budget itself.
  if (unit === 'ratio') return number.toFixed(Math.abs(number) < 1 ? 3 : 2);
  if (unit === 'CLS') return number.toFixed(3);
  if (Math.abs(number) >= 1000) return Math.round(number).toLocaleString('en-US');
  if (Math.abs(number) >= 100) return number.toFixed(0);
  if (Math.abs(number) >= 10) return number.toFixed(1);
  return number.toFixed(2);
}

export function tableRows(judged) {
  return judged.map((row) => {
    const ratio = row.ratioSummary
      ? `${format(row.ratioSummary.median, 'ratio')} (${format(row.ratioSummary.min, 'ratio')}–${format(row.ratioSummary.max, 'ratio')}) of ${row.ratio.of}`
      : '';
    return [
      row.part,
      row.name,
      row.unit,
      format(row.value.min, row.unit),
      format(row.value.median, row.unit),
      format(row.value.max, row.unit),
      ratio,
      row.budget ? `${row.budget.text} ${row.met ? '✔' : '✘'}` : '',
    ];
  });
}

const HEADER = [
  'part',
  'figure',
  'unit',
  'min',
  'median',
  'max',
  'ratio: median (min–max)',
  'budget',
];

export function printTable(judged) {
  const rows = [HEADER, ...tableRows(judged)];
  const widths = HEADER.map((_, column) =>
    Math.max(...rows.map((row) => String(row[column]).length)),
  );
  const line = (row) => row.map((cell, column) => String(cell).padEnd(widths[column])).join('  ');
  console.log(line(rows[0]));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows.slice(1)) console.log(line(row));
}

export function markdown({ judged, parts, machine }) {
  const escape = (cell) => String(cell).replaceAll('|', '\\|');
  const lines = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (see the README). Every figure is measured several times in one',
    'run: min, median and max are shown; a ratio compares with a baseline measured beside it in the',
    'same run, so it carries over from a noisy machine better than the absolute figure.',
    '',
  ];
  const described = (m) =>
    `${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}`;
  const machines = new Set(parts.map((part) => described(part.machine ?? machine)));
  if (machines.size <= 1) lines.push(`Machine: ${described(machine)}.`, '');
  else lines.push('The parts were measured in separate runs: each names its machine.', '');
  for (const part of parts) {
    lines.push(`## ${part.title}`, '');
    const where = [
      machines.size > 1 ? `on ${described(part.machine ?? machine)}` : undefined,
      part.commit ? `at ${part.commit}` : undefined,
    ].filter(Boolean);
    lines.push(
      `Measured ${part.measuredAt}${where.length ? ` ${where.join(', ')}` : ''} (${part.seconds.toFixed(0)} s, ${part.runs} runs each).`,
      '',
    );
    const rows = judged.filter((row) => row.part === part.name);
    if (rows.length) {
      lines.push(`| ${HEADER.slice(1).join(' | ')} |`);
      lines.push(
        `|${HEADER.slice(1)
          .map(() => '---')
          .join('|')}|`,
      );
      for (const row of tableRows(rows)) lines.push(`| ${row.slice(1).map(escape).join(' | ')} |`);
      lines.push('');
    }
    for (const note of part.notes ?? []) lines.push(`- ${note}`);
    if (part.notes?.length) lines.push('');
  }
  const budgets = judged.filter((row) => row.budget);
  const missed = budgets.filter((row) => !row.met);
  lines.push('## Budgets', '');
  lines.push(`${budgets.length - missed.length} of ${budgets.length} budgets met.`);
  for (const row of missed) lines.push(`- missed: ${row.part} · ${row.name} (${row.budget.text})`);
  lines.push('');
  return lines.join('\n');
}
