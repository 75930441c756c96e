/** Create your account: completed by its own issue; the route and its layout exist now. */
export default function SignupPage() {
  return (
    <section className="placeholder-page">
      <h1>Create your account</h1>
      <p className="muted">Sign up to save your cart and payments.</p>
    </section>
  );
}
