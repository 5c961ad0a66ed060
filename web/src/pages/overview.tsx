// Overview: the wallet, and request volume, success rate and median latency over a chosen range (24
// hours, 7 or 30 days), sandbox and live drawn apart in strong, distinct colours with readable axes.
import { useEffect, useRef, useState } from 'react';
import { Chart, BarController, BarElement, CategoryScale, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { api, inr } from '../api';
import { Empty, Failure, useData } from '../ui';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend);
Chart.defaults.color = '#24292f';
Chart.defaults.font.size = 13;
Chart.defaults.borderColor = '#d0d7de';

const ENVS = ['sandbox', 'live'] as const;
const COLOUR = { sandbox: '#0969da', live: '#c4432b' } as const;
const RANGES = [
  { id: '24h', label: 'Last 24 hours' },
  { id: '7d', label: 'Last 7 days' },
  { id: '30d', label: 'Last 30 days' },
] as const;
type Range = (typeof RANGES)[number]['id'];
type Point = { at: string; environment: string; requests: number; success_rate: number; p50_ms: number };

interface Overview {
  wallet: { balance: number; held: number };
  bucket: 'hour' | 'day';
  series: Point[];
}

function EnvChart({ labels, sets, title, kind, stacked }: { labels: string[]; sets: Record<string, Array<number | null>>; title: string; kind: 'bar' | 'line'; stacked?: boolean }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const datasets = ENVS.map((env) => ({
      label: env,
      data: sets[env] ?? [],
      backgroundColor: COLOUR[env],
      borderColor: COLOUR[env],
      borderWidth: kind === 'line' ? 3 : 0,
      pointRadius: 3,
      spanGaps: true,
    }));
    const chart = new Chart(ref.current!, {
      type: kind,
      data: { labels, datasets },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: { legend: { display: true, position: 'bottom' } },
        scales: { x: { stacked: !!stacked, grid: { display: false } }, y: { stacked: !!stacked, beginAtZero: true } },
      },
    });
    return () => chart.destroy();
  }, [labels, sets, kind, stacked]);
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <div className="chart-box">
        <canvas ref={ref} role="img" aria-label={title} />
      </div>
    </figure>
  );
}

/** The buckets in order, and each environment's value per bucket (null where it had no request). */
function pivot(series: Point[], pick: (p: Point) => number) {
  const buckets = [...new Set(series.map((p) => p.at))].sort();
  const sets = Object.fromEntries(ENVS.map((env) => [env, buckets.map((b) => {
    const p = series.find((s) => s.at === b && s.environment === env);
    return p ? pick(p) : null;
  })]));
  return { buckets, sets };
}

export function Overview() {
  const [range, setRange] = useState<Range>('24h');
  const { data, error } = useData(() => api<Overview>(`/overview?range=${range}`), [range]);
  if (error) return <Failure error={error} />;
  if (!data) return <p className="loading">Loading…</p>;
  const fmt = (iso: string) => (data.bucket === 'hour' ? new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : new Date(iso).toLocaleDateString([], { day: 'numeric', month: 'short' }));
  const requests = pivot(data.series, (p) => p.requests);
  const labels = requests.buckets.map(fmt);
  const total = (env: string) => data.series.filter((p) => p.environment === env).reduce((n, p) => n + p.requests, 0);
  const per = data.bucket === 'hour' ? 'hour' : 'day';
  return (
    <section>
      <h1>Overview</h1>
      <div className="cards">
        <div className="card">
          <span>Available</span>
          <strong data-testid="balance">{inr(data.wallet.balance)}</strong>
        </div>
        <div className="card">
          <span>Held by pending operations</span>
          <strong>{inr(data.wallet.held)}</strong>
        </div>
        {ENVS.map((env) => (
          <div className="card" key={env}>
            <span>{env} requests</span>
            <strong data-testid={`total-${env}`}>{total(env)}</strong>
          </div>
        ))}
      </div>
      <label className="inline">
        Range
        <select value={range} onChange={(e) => setRange(e.target.value as Range)}>
          {RANGES.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
      {data.series.length === 0 ? (
        <Empty>No API requests in this range yet. Create a sandbox key and make a call.</Empty>
      ) : (
        <div className="charts">
          <EnvChart title={`Requests per ${per}`} kind="bar" stacked labels={labels} sets={requests.sets} />
          <EnvChart title="Success rate (%)" kind="line" labels={labels} sets={pivot(data.series, (p) => Math.round(p.success_rate * 100)).sets} />
          <EnvChart title="Median latency (ms)" kind="line" labels={labels} sets={pivot(data.series, (p) => Math.round(p.p50_ms)).sets} />
        </div>
      )}
    </section>
  );
}
