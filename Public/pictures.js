// Pictures of the layout from the panel: the view as a PNG (what the canvas shows, at the
// screen's pixel ratio, or 2x or 4x for print: drawn again at that ratio, not scaled up) and
// the whole layout as an SVG drawing (svgwriter.js). Both are made here, in the page, of what
// it shows; `GET /export/NAME.svg` draws the SVG on the server for scripts.
import { layoutSVG } from './svgwriter.js';
import { saveBlob } from './download.js';

const MAX_PIXELS = 64e6; // a 4x picture of a 4K screen is 133M px: more than a canvas holds

/** The pixel ratio of a picture: 'screen' (the screen's) or a number, within what a canvas holds. */
export function pictureRatio(choice, screenRatio, cssW, cssH) {
  const wanted = choice === 'screen' ? screenRatio || 1 : Number(choice) || 1;
  const most = Math.sqrt(MAX_PIXELS / Math.max(1, cssW * cssH));
  return Math.max(0.5, Math.min(wanted, most));
}

export function createPictures({ png, svg, scale }, state, { renderer, scene, say }) {
  const name = (ext) => `${state.room}.${ext}`;

  png.addEventListener('click', () => {
    const { cssW, cssH } = renderer.size;
    const ratio = pictureRatio(scale.value, window.devicePixelRatio, cssW, cssH);
    const canvas = renderer.picture(scene.scene, ratio);
    canvas.toBlob((blob) => {
      if (!blob) return say('The browser could not make the picture (too large?)', 'error');
      saveBlob(blob, name('png'));
      say(`Saved the view as ${name('png')} (${canvas.width} \u00d7 ${canvas.height} px).`, 'done');
    }, 'image/png');
  });

  svg.addEventListener('click', () => {
    const c = renderer.colors;
    const text = layoutSVG(scene.scene, { bg: c.bg, link: c.link, text: c.hover }, `forcelayout: room ${state.room}`);
    saveBlob(new Blob([text], { type: 'image/svg+xml' }), name('svg'));
    say(`Saved the layout as ${name('svg')} (${scene.scene.count.toLocaleString('en-US')} cells, ${state.data.links.size.toLocaleString('en-US')} links).`, 'done');
  });
}
