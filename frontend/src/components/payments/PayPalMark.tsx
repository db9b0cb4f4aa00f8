/**
 * The PayPal word mark in its two blues, drawn with text (no remote assets); the lighter
 * blue is darkened so both halves keep 4.5:1 on the yellow button.
 */
export function PayPalMark() {
  return (
    <span style={{ fontWeight: 800, fontStyle: "italic", fontSize: 18, letterSpacing: -0.3 }}>
      <span style={{ color: "#253b80" }}>Pay</span>
      <span style={{ color: "#00457c" }}>Pal</span>
    </span>
  );
}
