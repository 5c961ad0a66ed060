// Overview: the wallet, and request volume, success rate and median latency over the last 24 hours.
import { useEffect, useRef } from 'react';
import { Chart, BarController, BarElement, CategoryScale, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { api, inr } from '../api';
import { Empty, Failure, useData } from '../ui';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend);

interface Overview {
  wallet: { balance: number; held: number };
  series: Array<{ hour: string; requests: number; success_rate: number; p50_ms: number }>;
}

function LineChart({ labels, sets, title }: { labels: string[]; sets: Array<{ label: string; data: number[]; type?: 'bar' | 'line' }>; title: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chart = new Chart(ref.current!, {
      type: 'bar',
      data: { labels, datasets: sets.map((s) => ({ ...s, type: s.type ?? 'bar' })) },
      options: { responsive: true, maintainAspectRatio: false, animation: false, plugins: { legend: { display: sets.length > 1 } } },
    });
    return () => chart.destroy();
  }, [labels, sets]);
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <div className="chart-box">
        <canvas ref={ref} role="img" aria-label={title} />
      </div>
    </figure>
  );
}

export function Overview() {
  const { data, error } = useData(() => api<Overview>('/overview'), []);
  if (error) return <Failure error={error} />;
  if (!data) return <p className="loading">Loading…</p>;
  const labels = data.series.map((s) => new Date(s.hour).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }));
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
      </div>
      {data.series.length === 0 ? (
        <Empty>No API requests in the last 24 hours yet. Create a sandbox key and make a call.</Empty>
      ) : (
        <div className="charts">
          <LineChart title="Requests per hour" labels={labels} sets={[{ label: 'Requests', data: data.series.map((s) => s.requests) }]} />
          <LineChart title="Success rate (%)" labels={labels} sets={[{ label: 'Success %', data: data.series.map((s) => Math.round(s.success_rate * 100)), type: 'line' }]} />
          <LineChart title="Median latency (ms)" labels={labels} sets={[{ label: 'p50 ms', data: data.series.map((s) => Math.round(s.p50_ms)), type: 'line' }]} />
        </div>
      )}
    </section>
  );
}
