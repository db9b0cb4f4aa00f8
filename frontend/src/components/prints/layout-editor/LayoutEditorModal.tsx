// "Edit layout" on the print detail (before processing): the canvas with its toolbar, the
// problems list, undo/redo, re-nest around the pinned copies, and Save (refused while any
// problem remains; the server checks again). See docs/frontend.md "Layout editor".
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Alert, Button, Flex, Modal, Select, Space, Tag, Tooltip, Typography } from "antd";
import {
  AppstoreAddOutlined, DeleteOutlined, DragOutlined, NodeIndexOutlined, PlusOutlined, PushpinFilled, PushpinOutlined, RedoOutlined, RotateRightOutlined, SaveOutlined, UndoOutlined, ZoomInOutlined, ZoomOutOutlined,
} from "@ant-design/icons";
import type { DesignImage, Layout, PrintItem, SheetSettings } from "../../../api/types";
import { useEditHistory } from "../../../hooks/useEditHistory";
import { usePrintLayout, type LayoutProblem } from "../../../hooks/usePrintLayout";
import { toast } from "../../../lib/toast";
import {
  BIG_NUDGE_IN, copiesFromLayout, copyName, countsByItem, findProblems, footprint, NUDGE_IN, rotated, snap, toApiCopies, type EditorCopy, type EditorSettings,
} from "./editorModel";
import { LayoutCanvas, type LayoutCanvasHandle } from "./LayoutCanvas";
import { SaveTemplateModal } from "../../templates/SaveTemplateModal";

export interface LayoutEditorModalProps {
  open: boolean;
  onClose: () => void;
  printId: string;
  layout: Layout;
  items: PrintItem[];
  settings: SheetSettings;
}

function useElementSize<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const read = () => setSize({ width: el.clientWidth, height: el.clientHeight });
    read();
    if (typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver(read);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return { ref, ...size };
}

export function LayoutEditorModal({ open, onClose, printId, layout, items, settings }: LayoutEditorModalProps) {
  const s: EditorSettings = useMemo(
    () => ({ width: settings.width, maxLength: settings.maxLength, gap: settings.gap, margin: settings.margin, dpi: settings.dpi, rotate: settings.rotate, nesting: settings.nesting }),
    [settings],
  );
  const history = useEditHistory<EditorCopy[]>([]);
  const copies = history.value;
  const { reset } = history;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [zoom, setZoom] = useState(1);
  const [panMode, setPanMode] = useState(false);
  const [serverProblems, setServerProblems] = useState<LayoutProblem[]>([]);
  const [checking, setChecking] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const canvas = useRef<LayoutCanvasHandle>(null);
  const box = useElementSize<HTMLDivElement>();
  const ops = usePrintLayout(printId);
  const nextKey = useRef(0);

  // Each opening starts from the layout the detail page shows (the saved edit, or the engine's)
  useEffect(() => {
    if (!open) return;
    reset(copiesFromLayout(layout));
    setSelected(new Set());
    setSaveError(null);
    setServerProblems([]);
    setZoom(1);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const images = useMemo(() => new Map(items.flatMap((i) => (i.image ? [[i.image._id, i.image as DesignImage] as const] : []))), [items]);
  const nameOf = useMemo(() => new Map(items.map((i) => [i._id, i.image?.name])), [items]);
  const label = useCallback((c: EditorCopy) => copyName(c, nameOf.get(c.itemId)), [nameOf]);
  // "Save as template": the copies on screen as slots (box as placed, what went there)
  const [savingTemplate, setSavingTemplate] = useState(false);
  const slotSources = useMemo(() => {
    if (!savingTemplate) return [];
    const itemOf = new Map(items.map((i) => [i._id, i]));
    return copies.map((c) => {
      const it = itemOf.get(c.itemId);
      return { sheet: c.sheet, ...footprint(c), rotation: c.rotation, label: it?.image?.name ?? null, sizeName: it?.size?.name ?? null, sizeValue: it?.size?.value ?? null };
    });
  }, [savingTemplate, copies, items]);

  // the checks the client makes exactly; for "shape" prints the server names the copies too close
  const local = useMemo(() => findProblems(copies, s), [copies, s]);
  const problems = useMemo(() => {
    const m = new Map<string, { kinds: Set<string>; with: Set<string> }>();
    for (const [k, v] of local) m.set(k, { kinds: new Set(v.kinds), with: new Set(v.with) });
    if (s.nesting === "shape") {
      const byRef = new Map(copies.map((c) => [`${c.itemId}#${c.copy}`, c.key]));
      for (const p of serverProblems.filter((x) => x.code === "too_close")) {
        const keys = p.copies.map((r) => byRef.get(`${r.itemId}#${r.copy}`)).filter((k): k is string => !!k);
        for (const k of keys) {
          const e = m.get(k) ?? { kinds: new Set<string>(), with: new Set<string>() };
          e.kinds.add("too_close");
          for (const o of keys) if (o !== k) e.with.add(o);
          m.set(k, e);
        }
      }
    }
    return m;
  }, [local, serverProblems, copies, s.nesting]);

  // "shape": the server's check of the ink, a moment after the last change
  const checkMutate = ops.check.mutateAsync;
  useEffect(() => {
    if (!open || s.nesting !== "shape" || copies.length === 0) return;
    let live = true;
    setChecking(true);
    const t = setTimeout(() => {
      checkMutate({ settings, copies: copies.map((c) => ({ itemId: c.itemId, copy: c.copy, sheet: c.sheet, x: c.x, y: c.y, rotation: c.rotation, pinned: c.pinned })) })
        .then((p) => live && setServerProblems(p))
        .catch(() => undefined)
        .finally(() => live && setChecking(false));
    }, 250);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [open, copies, s.nesting, settings, checkMutate]);

  const sheets = Math.max(1, ...copies.map((c) => c.sheet + 1)) + (Number.isFinite(s.maxLength) ? 1 : 0);
  const selectedCopies = copies.filter((c) => selected.has(c.key));

  const update = (fn: (c: EditorCopy) => EditorCopy, keys = selected) => {
    if (!keys.size) return;
    history.set((list) => list.map((c) => (keys.has(c.key) ? fn(c) : c)));
  };
  const nudge = (dx: number, dy: number) => {
    update((c) => ({ ...c, x: snap(c.x + dx, s.dpi), y: snap(c.y + dy, s.dpi) }));
    const first = selectedCopies[0];
    if (first) setStatus(`Moved ${selectedCopies.length === 1 ? label(first) : `${selectedCopies.length} copies`} to ${(first.x + dx).toFixed(3)}, ${(first.y + dy).toFixed(3)} in`);
  };
  const rotate = () => {
    if (!s.rotate) return toast.error("These sheet settings do not allow rotation.");
    update((c) => rotated(c, s.dpi));
    setStatus(`Turned ${selectedCopies.length} ${selectedCopies.length === 1 ? "copy" : "copies"} by 90°`);
  };
  const allPinned = selectedCopies.length > 0 && selectedCopies.every((c) => c.pinned);
  const togglePin = () => {
    update((c) => ({ ...c, pinned: !allPinned }));
    setStatus(`${allPinned ? "Unpinned" : "Pinned"} ${selectedCopies.length} ${selectedCopies.length === 1 ? "copy" : "copies"}`);
  };
  const remove = () => {
    if (!selected.size) return;
    history.set((list) => list.filter((c) => !selected.has(c.key)));
    setStatus(`Deleted ${selected.size} ${selected.size === 1 ? "copy" : "copies"}; the item's quantity follows when you save`);
    setSelected(new Set());
  };
  const addCopy = () => {
    const src = selectedCopies[0];
    if (!src) return;
    const copy = Math.max(...copies.filter((c) => c.itemId === src.itemId).map((c) => c.copy)) + 1;
    const key = `${src.itemId}#new${nextKey.current++}`;
    history.set((list) => [...list, { ...src, key, copy, pinned: false, x: snap(src.x + 0.5, s.dpi), y: snap(src.y + 0.5, s.dpi) }]);
    setSelected(new Set([key]));
    setStatus(`Added ${copyName({ copy }, nameOf.get(src.itemId))}; the item's quantity follows when you save`);
  };

  /** Items' quantities follow the copies in the editor (deleted or added ones) before the server sees the layout. */
  const syncQuantities = async () => {
    const counts = countsByItem(copies);
    for (const it of items) {
      const n = counts.get(it._id) ?? 0;
      if (n !== it.quantity) await ops.setQuantity.mutateAsync({ itemId: it._id, quantity: n });
    }
  };

  const renest = async () => {
    setSaveError(null);
    try {
      await syncQuantities();
      // every copy: the pinned ones stay, the others are where the search starts (the layout shown)
      const res = await ops.renest.mutateAsync({ settings, copies: toApiCopies(copies) });
      if (!res) return;
      // keep the keys of pinned copies so the selection survives; the rest are the engine's
      const pinnedKeys = new Map(copies.filter((c) => c.pinned).map((c) => [c.itemId, [] as string[]]));
      for (const c of copies.filter((v) => v.pinned)) pinnedKeys.get(c.itemId)!.push(c.key);
      const counter = new Map<string, number>();
      // an item's order label space is the same for all its copies
      const labelOf = new Map(copies.filter((c) => c.label).map((c) => [c.itemId, c.label]));
      const next: EditorCopy[] = res.copies.map((p) => {
        const turned = p.rotation % 180 !== 0;
        let key = `${p.itemId}#${p.copy}`;
        if (p.pinned) {
          const list = pinnedKeys.get(p.itemId) ?? [];
          const i = counter.get(p.itemId) ?? 0;
          counter.set(p.itemId, i + 1);
          key = list[i] ?? key;
        }
        return { key, itemId: p.itemId, imageId: p.imageId, copy: p.copy, sheet: p.sheet, x: p.x, y: p.y, w: turned ? p.height : p.width, h: turned ? p.width : p.height, rotation: p.rotation, pinned: p.pinned, label: labelOf.get(p.itemId) };
      });
      // keys must be unique: the engine's numbers for the unpinned, the kept keys for the pinned
      const seen = new Set<string>();
      history.set(next.map((c) => (seen.has(c.key) ? { ...c, key: `${c.key}~${nextKey.current++}` } : (seen.add(c.key), c))));
      setStatus(`Re-nested ${next.filter((c) => !c.pinned).length} copies around ${next.filter((c) => c.pinned).length} pinned`);
    } catch (e) {
      setSaveError((e as Error).message);
    }
  };

  const blocked = problems.size > 0 || checking;
  const save = async () => {
    if (problems.size) return;
    setSaveError(null);
    try {
      await syncQuantities();
      await ops.save.mutateAsync({ settings, copies: toApiCopies(copies) });
      toast.success("Layout saved");
      onClose();
    } catch (e) {
      setSaveError((e as Error).message);
    }
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    const k = e.key;
    const mod = e.ctrlKey || e.metaKey;
    if (mod && (k === "z" || k === "Z")) {
      e.preventDefault();
      if (e.shiftKey) history.redo();
      else history.undo();
      return;
    }
    if (mod && (k === "y" || k === "Y")) {
      e.preventDefault();
      history.redo();
      return;
    }
    if (mod && (k === "a" || k === "A")) {
      e.preventDefault();
      setSelected(new Set(copies.map((c) => c.key)));
      return;
    }
    const step = e.shiftKey ? BIG_NUDGE_IN : NUDGE_IN;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (moves[k] && selected.size) {
      e.preventDefault();
      nudge(...moves[k]);
    } else if ((k === "r" || k === "R") && selected.size) {
      e.preventDefault();
      rotate();
    } else if ((k === "p" || k === "P") && selected.size) {
      e.preventDefault();
      togglePin();
    } else if ((k === "Delete" || k === "Backspace") && selected.size) {
      e.preventDefault();
      remove();
    } else if (k === "Escape" && selected.size) {
      e.stopPropagation();
      setSelected(new Set());
    }
  };

  const problemList = [...problems.entries()].slice(0, 8).map(([key, p]) => {
    const c = copies.find((v) => v.key === key);
    if (!c) return null;
    const what = [...p.kinds].map((kind) =>
      kind === "too_close"
        ? `is closer than the gap to ${[...p.with].map((o) => copies.find((v) => v.key === o)).filter(Boolean).map((o) => label(o!)).join(", ")}`
        : kind === "outside_margins"
          ? "lies outside the margins"
          : `runs beyond the maximum length (${s.maxLength} in)`,
    );
    return { key, text: `${label(c)} ${what.join(" and ")}` };
  }).filter((x): x is { key: string; text: string } => !!x);

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title="Edit layout"
      width="min(1200px, 100vw)"
      style={{ top: 8, maxWidth: "100vw", paddingBottom: 0 }}
      styles={{ body: { padding: 0 } }}
      destroyOnHidden
      footer={
        <Flex justify="space-between" wrap gap={8} align="center">
          <Typography.Text type={blocked ? "danger" : "secondary"} data-testid="layout-editor-state">
            {checking ? "Checking…" : problems.size ? `${problems.size} ${problems.size === 1 ? "copy has" : "copies have"} a problem` : `${copies.length} copies · no problems`}
          </Typography.Text>
          <Space wrap>
            <Button onClick={onClose}>Cancel</Button>
            <Tooltip title={blocked && !checking ? "Fix the copies shown in red first" : "Keep where the designs sit, for new prints with other artwork"}>
              <Button icon={<AppstoreAddOutlined />} disabled={blocked || copies.length === 0} onClick={() => setSavingTemplate(true)}>Save as template</Button>
            </Tooltip>
            <Tooltip title={blocked && !checking ? "Fix the copies shown in red first" : null}>
              <Button type="primary" icon={<SaveOutlined />} disabled={blocked} loading={ops.save.isPending} onClick={save}>Save layout</Button>
            </Tooltip>
          </Space>
        </Flex>
      }
    >
      <Flex vertical gap={8} style={{ padding: "8px 12px" }}>
        <Flex wrap gap={6} role="toolbar" aria-label="Layout tools">
          <Tooltip title="Undo (Ctrl+Z)"><Button icon={<UndoOutlined />} aria-label="Undo" disabled={!history.canUndo} onClick={history.undo} /></Tooltip>
          <Tooltip title="Redo (Ctrl+Shift+Z)"><Button icon={<RedoOutlined />} aria-label="Redo" disabled={!history.canRedo} onClick={history.redo} /></Tooltip>
          <Tooltip title="Turn 90° (R)"><Button icon={<RotateRightOutlined />} aria-label="Rotate 90 degrees" disabled={!selected.size || !s.rotate} onClick={rotate} /></Tooltip>
          <Tooltip title="Pin or unpin (P)">
            <Button icon={allPinned ? <PushpinFilled /> : <PushpinOutlined />} aria-label={allPinned ? "Unpin" : "Pin"} aria-pressed={allPinned} disabled={!selected.size} onClick={togglePin} />
          </Tooltip>
          <Tooltip title="Delete copy (Del)"><Button icon={<DeleteOutlined />} aria-label="Delete copy" danger disabled={!selected.size} onClick={remove} /></Tooltip>
          <Tooltip title="One more copy of this design"><Button icon={<PlusOutlined />} aria-label="Add a copy" disabled={selected.size !== 1} onClick={addCopy} /></Tooltip>
          <Tooltip title="Zoom out"><Button icon={<ZoomOutOutlined />} aria-label="Zoom out" onClick={() => setZoom((z) => Math.max(0.25, z / 1.25))} /></Tooltip>
          <Tooltip title="Zoom in"><Button icon={<ZoomInOutlined />} aria-label="Zoom in" onClick={() => setZoom((z) => Math.min(8, z * 1.25))} /></Tooltip>
          <Tooltip title="Drag the background to pan"><Button icon={<DragOutlined />} aria-label="Pan" aria-pressed={panMode} type={panMode ? "primary" : "default"} onClick={() => setPanMode((v) => !v)} /></Tooltip>
          <Button icon={<NodeIndexOutlined />} loading={ops.renest.isPending} onClick={renest}>Re-nest the rest</Button>
        </Flex>
        <Select
          aria-label="Select a copy"
          placeholder="Select a copy"
          size="small"
          style={{ maxWidth: 360, width: "100%" }}
          value={selected.size === 1 ? [...selected][0] : undefined}
          options={copies.map((c) => ({ value: c.key, label: `${label(c)}${c.pinned ? " (pinned)" : ""}${problems.has(c.key) ? " — problem" : ""}` }))}
          // onSelect, not onChange: choosing the copy already selected still scrolls to it and says where it is
          onSelect={(key: string) => {
            setSelected(new Set([key]));
            canvas.current?.reveal(key);
            const c = copies.find((v) => v.key === key);
            if (c) setStatus(`Selected ${label(c)} on sheet ${c.sheet + 1} at ${c.x.toFixed(3)}, ${c.y.toFixed(3)} in${c.rotation ? `, turned ${c.rotation}°` : ""}${c.pinned ? ", pinned" : ""}`);
          }}
          showSearch
          optionFilterProp="label"
        />
        {saveError && <Alert type="error" showIcon message={saveError} closable onClose={() => setSaveError(null)} data-testid="layout-editor-error" />}
        <div
          ref={box.ref}
          tabIndex={0}
          role="application"
          aria-label="Sheet layout. Arrow keys move the selected copies by 1/16 inch, with Shift by 1/2 inch; R turns, P pins, Delete removes, Ctrl+Z undoes."
          aria-describedby="layout-editor-help"
          onKeyDown={onKeyDown}
          data-testid="layout-editor-canvas"
          style={{ height: "min(64vh, 720px)", minHeight: 280, outline: "none", border: "1px solid #cbd5e1", borderRadius: 6, overflow: "hidden" }}
        >
          {box.width > 0 && (
            <LayoutCanvas
              ref={canvas}
              copies={copies}
              settings={s}
              printId={printId}
              sheets={sheets}
              images={images}
              problems={problems}
              selected={selected}
              onSelect={setSelected}
              onMove={(moves) => {
                const by = new Map(moves.map((m) => [m.key, m]));
                history.set((list) => list.map((c) => (by.has(c.key) ? { ...c, ...by.get(c.key)! } : c)));
                const first = moves[0];
                const c = copies.find((v) => v.key === first?.key);
                if (c) setStatus(`Moved ${moves.length === 1 ? label(c) : `${moves.length} copies`} to sheet ${first.sheet + 1} at ${first.x.toFixed(3)}, ${first.y.toFixed(3)} in`);
              }}
              width={box.width}
              height={box.height}
              zoom={zoom}
              panMode={panMode}
              onZoom={setZoom}
            />
          )}
        </div>
        <Typography.Text type="secondary" id="layout-editor-help" style={{ fontSize: 12 }}>
          Drag copies (also onto another sheet), Shift-click or drag a box on the background to select several. Arrows move by 1/16 in (Shift: 1/2 in); R turns, P pins, Del deletes; Ctrl+wheel zooms. Pinned copies{" "}
          <Tag color="gold" style={{ marginInlineEnd: 0 }}>P</Tag> stay where they are when you re-nest the rest.
        </Typography.Text>
        <div aria-live="polite" data-testid="layout-editor-status" style={{ fontSize: 12, minHeight: 18 }}>{status}</div>
        {problemList.length > 0 && (
          <Alert
            type="error"
            showIcon
            data-testid="layout-editor-problems"
            message="Shown in red: fix these before saving"
            description={
              <Flex vertical gap={2}>
                {problemList.map((p) => (
                  <Typography.Link key={p.key} onClick={() => { setSelected(new Set([p.key])); canvas.current?.reveal(p.key); }}>{p.text}</Typography.Link>
                ))}
                {problems.size > problemList.length && <span>and {problems.size - problemList.length} more</span>}
              </Flex>
            }
          />
        )}
      </Flex>
      <SaveTemplateModal open={savingTemplate} onClose={() => setSavingTemplate(false)} source={{ copies: slotSources, settings }} />
    </Modal>
  );
}
