import type { SheetTemplate } from "./api";

/**
 * A small drawing of a template: each sheet's outline (cut at the lowest slot, not the
 * maximum length) with the slots as numbered boxes, turned slots hatched darker.
 */
export function TemplateDrawing({ template, width = 120, highlight }: { template: Pick<SheetTemplate, "settings" | "slots" | "name">; width?: number; highlight?: number }) {
  const { settings, slots } = template;
  const sheets = Math.max(1, ...slots.map((s) => s.sheet + 1));
  const lengthOf = (sheet: number) => Math.min(settings.maxLength, Math.max(settings.width / 2, ...slots.filter((s) => s.sheet === sheet).map((s) => s.y + s.height + settings.margin)));
  const gapIn = settings.width * 0.06;
  const tops: number[] = [];
  let total = 0;
  for (let k = 0; k < sheets; k++) {
    tops.push(total);
    total += lengthOf(k) + (k < sheets - 1 ? gapIn : 0);
  }
  const scale = width / settings.width;
  const fontIn = Math.max(settings.width / 18, 0.35);
  return (
    <svg
      width={width}
      height={Math.ceil(total * scale)}
      viewBox={`0 0 ${settings.width} ${total}`}
      role="img"
      aria-label={`${template.name}: ${slots.length} ${slots.length === 1 ? "slot" : "slots"} on ${sheets === 1 ? "a" : sheets} ${settings.width} in ${sheets === 1 ? "sheet" : "sheets"}`}
      data-testid="template-drawing"
      style={{ display: "block", background: "transparent" }}
    >
      {tops.map((top, k) => (
        <rect key={k} x={0} y={top} width={settings.width} height={lengthOf(k)} fill="#f8fafc" stroke="#94a3b8" strokeWidth={settings.width / 150} />
      ))}
      {slots.map((s, i) => (
        <g key={i}>
          <rect
            x={s.x}
            y={tops[s.sheet] + s.y}
            width={s.width}
            height={s.height}
            fill={highlight === i ? "#1d4ed8" : s.rotation ? "#60a5fa" : "#93c5fd"}
            stroke="#1e3a8a"
            strokeWidth={settings.width / 200}
          />
          <text x={s.x + s.width / 2} y={tops[s.sheet] + s.y + s.height / 2} fontSize={fontIn} textAnchor="middle" dominantBaseline="central" fill={highlight === i ? "#fff" : "#0f172a"}>
            {i + 1}
          </text>
        </g>
      ))}
    </svg>
  );
}
