/** Checkout: completed by its own issue; the route and its layout exist now. */
export default function CheckoutPage() {
  return (
    <section className="placeholder-page">
      <h1>Checkout</h1>
      <p className="muted">Add something to your cart to check out.</p>
    </section>
  );
}
