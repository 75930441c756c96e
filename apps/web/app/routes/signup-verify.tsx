/** Check your inbox: completed by its own issue; the route and its layout exist now. */
export default function SignupVerifyPage() {
  return (
    <section className="placeholder-page">
      <h1>Check your inbox</h1>
      <p className="muted">We sent you a verification code.</p>
    </section>
  );
}
