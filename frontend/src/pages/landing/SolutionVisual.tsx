/**
 * Drawn illustrations for the landing page (no stock images to license or load):
 * a sheet of packed designs, a dashboard, or a hand-built list.
 */
const COLORS = ["#6366f1", "#f59e0b", "#10b981", "#ef4444", "#0ea5e9", "#a855f7", "#f97316", "#14b8a6"];

const PACKED = [
  [4, 4, 38, 30], [44, 4, 24, 18], [70, 4, 26, 40], [44, 24, 24, 20], [4, 36, 20, 26],
  [26, 36, 16, 14], [26, 52, 16, 10], [44, 46, 30, 16], [76, 46, 20, 16], [4, 64, 30, 32],
  [36, 64, 22, 18], [60, 64, 36, 14], [36, 84, 16, 12], [54, 80, 20, 16], [76, 80, 20, 16],
];

export function SolutionVisual({ variant }: { variant: "dashboard" | "automated" | "manual" }) {
  if (variant === "dashboard") {
    return (
      <div className="lp-visual lp-visual--dashboard">
        <div className="lp-visual__bar" />
        <div className="lp-visual__cards">
          {["Pending Prints", "Total Prints", "Used Credits", "Pending Orders"].map((label, i) => (
            <div key={label} className="lp-visual__card">
              <span>{label}</span>
              <strong style={{ color: COLORS[i] }}>{[12, 148, 2430, 7][i]}</strong>
            </div>
          ))}
        </div>
        <div className="lp-visual__chart">
          {[40, 65, 50, 80, 70, 95, 60].map((h, i) => <span key={i} style={{ height: `${h}%` }} />)}
        </div>
      </div>
    );
  }
  if (variant === "manual") {
    return (
      <div className="lp-visual lp-visual--list">
        {["Sunset tee logo", "Retro cassette", "Floral badge", "Team crest"].map((name, i) => (
          <div key={name} className="lp-visual__row">
            <span className="lp-visual__thumb" style={{ background: COLORS[i + 2] }} />
            <span className="lp-visual__name">{name}</span>
            <span className="lp-visual__pill">{[11, 4, 3.5, 10][i]} in</span>
            <span className="lp-visual__qty">× {[24, 60, 80, 12][i]}</span>
          </div>
        ))}
      </div>
    );
  }
  return (
    <div className="lp-visual lp-visual--sheet">
      <svg viewBox="0 0 100 100" preserveAspectRatio="none">
        {PACKED.map(([x, y, w, h], i) => (
          <rect key={i} x={x} y={y} width={w} height={h} rx={2} fill={COLORS[i % COLORS.length]} opacity={0.85} />
        ))}
      </svg>
      <span className="lp-visual__label">22 in × 48 in · 94% film used</span>
    </div>
  );
}
