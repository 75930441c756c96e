/** Video quality monitoring demo: completed by its own issue; the route and its layout exist now. */
export default function VideoDemoPage() {
  return (
    <section className="placeholder-page">
      <h1>Video quality monitoring demo</h1>
      <p className="muted">Playback quality, monitored.</p>
    </section>
  );
}
