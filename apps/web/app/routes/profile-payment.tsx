/** Payment methods: completed by its own issue; the route and its layout exist now. */
export default function ProfilePaymentPage() {
  return (
    <section className="placeholder-page">
      <h1>Payment methods</h1>
      <p className="muted">Your saved cards.</p>
    </section>
  );
}
