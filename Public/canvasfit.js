// A canvas sized to its box on the screen in device pixels: its CSS size and the pixel ratio
// it was sized at (the strip and the timeline draw in CSS units scaled by the ratio).

/** Sizes `canvas`'s bitmap to its box; returns `{ cssW, cssH, dpr }`. */
export function fitCanvas(canvas) {
  const rect = canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  const cssW = Math.max(1, rect.width);
  const cssH = Math.max(1, rect.height);
  canvas.width = Math.max(1, Math.round(cssW * dpr));
  canvas.height = Math.max(1, Math.round(cssH * dpr));
  return { cssW, cssH, dpr };
}
