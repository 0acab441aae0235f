/** Hands `blob` to the browser as a download named `name`. */
export function saveFile({ blob, name }: { blob: Blob; name: string }) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // Released once the browser surely took it: revoked at once, a download may not have started yet.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
