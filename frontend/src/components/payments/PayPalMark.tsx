/** The PayPal word mark in its two blues, drawn with text (no remote assets). */
export function PayPalMark() {
  return (
    <span style={{ fontWeight: 800, fontStyle: "italic", fontSize: 18, letterSpacing: -0.3 }}>
      <span style={{ color: "#253b80" }}>Pay</span>
      <span style={{ color: "#179bd7" }}>Pal</span>
    </span>
  );
}
