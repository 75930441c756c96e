/** Your cart: completed by its own issue; the route and its layout exist now. */
export default function CartPage() {
  return (
    <section className="placeholder-page">
      <h1>Your cart</h1>
      <p className="muted">Your cart is empty.</p>
    </section>
  );
}
