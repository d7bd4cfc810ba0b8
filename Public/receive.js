// What the connection (net.js) hears, into the page's state (apply.js) and figures
// (perf.js): JSON messages as they are (a v1 server's frames among them), binary v2 frames
// decoded from their bytes (binaryframe.js) into a positions buffer the state then holds.
// Two buffers take turns: the state keeps the last frame's positions while the next one is
// decoded into the other, so a steady stream allocates nothing. The decode (head, views,
// dequantizing) is timed for the perf panel; the state's listeners are not part of it.
import { applyDecodedFrame, applyMessage } from './apply.js';
import { decodeFrame, dequantize } from './binaryframe.js';

export function createReceiver(state, perf, { now = () => performance.now() } = {}) {
  let spare = null; // the positions buffer the state does not hold

  return {
    /** A JSON message (net.js onMessage). */
    onMessage(msg) {
      if (msg.type === 'frame') perf.frame();
      applyMessage(state, msg);
    },
    /** A binary message (net.js onBinary): a v2 frame; anything else is ignored. */
    onBinary(buffer) {
      const t0 = now();
      const frame = decodeFrame(buffer);
      if (frame === null) return;
      const xy = dequantize(frame, spare);
      perf.frame();
      perf.decoded(now() - t0);
      const held = state.xy;
      if (applyDecodedFrame(state, frame, xy)) spare = held;
      else spare = xy;
    },
  };
}
