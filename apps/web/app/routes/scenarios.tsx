/** Scenarios: completed by its own issue; the route and its layout exist now. */
export default function ScenariosPage() {
  return (
    <section className="placeholder-page">
      <h1>Scenarios</h1>
      <p className="muted">Guided demo journeys for presenters.</p>
    </section>
  );
}
