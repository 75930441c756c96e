/** Verification: completed by its own issue; the route and its layout exist now. */
export default function VerificationPage() {
  return (
    <section className="placeholder-page">
      <h1>Verification</h1>
      <p className="muted">Confirm your e-mail address.</p>
    </section>
  );
}
