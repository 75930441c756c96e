/** Join the loyalty programme: completed by its own issue; the route and its layout exist now. */
export default function LoyaltySignupPage() {
  return (
    <section className="placeholder-page">
      <h1>Join the loyalty programme</h1>
      <p className="muted">Earn points on every order.</p>
    </section>
  );
}
