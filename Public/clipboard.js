// Copying a text to the clipboard wherever the page runs. The Clipboard API exists only in
// secure contexts (https, localhost), so a page served over plain http on a network address
// has none; there (and where the API refuses) the text is copied the old way, through a
// selection and document.execCommand('copy'), which such pages still allow on a click.
// Pure: what the page offers is given.

/**
 * Resolves to 'copied', or 'failed' when neither way copied it (the caller then leaves the
 * text selected for Ctrl+C). `clipboard`: navigator.clipboard, undefined where there is none;
 * `copyOldWay(text)`: copies through a selection, returns whether it did.
 */
export async function copyText(text, { clipboard, copyOldWay }) {
  if (typeof clipboard?.writeText === 'function') {
    try {
      await clipboard.writeText(text);
      return 'copied';
    } catch {
      // refused (no permission, the document not focused): the old way
    }
  }
  try {
    return copyOldWay(text) ? 'copied' : 'failed';
  } catch {
    return 'failed';
  }
}
