/**
 * A stacked bar chart in plain SVG: one bar per time bucket, one coloured segment per model.
 * Each segment carries a <title>, so hovering shows the bucket, model and value.
 */
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Series } from './usage';

const WIDTH = 800;
const HEIGHT = 260;
const MARGIN = { top: 12, right: 12, bottom: 36, left: 64 };
const TICKS = 4;
/** At most this many x labels; the others are skipped evenly. */
const MAX_X_LABELS = 12;

/** Colours of the models, in order of their share (the first ten are distinct). */
export const PALETTE = [
  '#1976d2',
  '#ef6c00',
  '#2e7d32',
  '#c62828',
  '#6a1b9a',
  '#00838f',
  '#ad1457',
  '#827717',
  '#4e342e',
  '#37474f',
];

/** A round upper bound for the axis (1, 2, 2.5 or 5 × a power of ten, per tick). */
export function niceMax(value: number, ticks = TICKS): number {
  if (value <= 0) return 1;
  const raw = value / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  return step * ticks;
}

export function Legend({ models, colorOf }: { models: string[]; colorOf: (model: string) => string }) {
  return (
    <Stack direction="row" spacing={2} flexWrap="wrap" useFlexGap component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {models.map((model) => (
        <Stack key={model} direction="row" spacing={0.75} alignItems="center" component="li">
          <Box sx={{ width: 12, height: 12, borderRadius: 0.5, bgcolor: colorOf(model) }} />
          <Typography variant="caption">{model}</Typography>
        </Stack>
      ))}
    </Stack>
  );
}

export function StackedBarChart({
  title,
  labels,
  series,
  colorOf,
  format,
}: {
  title: string;
  labels: string[];
  series: Series[];
  colorOf: (model: string) => string;
  format: (value: number) => string;
}) {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const totals = labels.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const top = niceMax(Math.max(0, ...totals));
  const slot = labels.length > 0 ? plotWidth / labels.length : plotWidth;
  const barWidth = Math.max(1, Math.min(48, slot * 0.7));
  const y = (value: number) => MARGIN.top + plotHeight - (value / top) * plotHeight;
  const labelEvery = Math.max(1, Math.ceil(labels.length / MAX_X_LABELS));

  return (
    <Box component="figure" sx={{ m: 0 }}>
      <Typography component="figcaption" variant="subtitle2" gutterBottom>
        {title}
      </Typography>
      <Box
        component="svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={title}
        sx={{ width: '100%', height: 'auto', display: 'block', color: 'text.secondary', fontSize: 11 }}
      >
        {Array.from({ length: TICKS + 1 }, (_, i) => {
          const value = (top / TICKS) * i;
          return (
            <g key={i}>
              <line
                x1={MARGIN.left}
                x2={WIDTH - MARGIN.right}
                y1={y(value)}
                y2={y(value)}
                stroke="currentColor"
                strokeOpacity={0.2}
              />
              <text x={MARGIN.left - 6} y={y(value)} textAnchor="end" dominantBaseline="middle" fill="currentColor">
                {format(value)}
              </text>
            </g>
          );
        })}
        {labels.map((label, i) => {
          const x = MARGIN.left + slot * i + (slot - barWidth) / 2;
          let base = 0;
          return (
            <g key={label} data-bucket={label}>
              {series.map((s) => {
                const value = s.values[i] ?? 0;
                if (value <= 0) return null;
                const rect = (
                  <rect
                    key={s.model}
                    x={x}
                    width={barWidth}
                    y={y(base + value)}
                    height={y(base) - y(base + value)}
                    fill={colorOf(s.model)}
                  >
                    <title>{`${label} · ${s.model}: ${format(value)}`}</title>
                  </rect>
                );
                base += value;
                return rect;
              })}
              {i % labelEvery === 0 && (
                <text x={x + barWidth / 2} y={HEIGHT - MARGIN.bottom + 16} textAnchor="middle" fill="currentColor">
                  {label}
                </text>
              )}
            </g>
          );
        })}
      </Box>
    </Box>
  );
}
