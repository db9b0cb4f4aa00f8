import { Link } from "react-router";
import { APP_NAME } from "../../lib/title";

export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden>
      <rect width="32" height="32" rx="7" fill="#4f46e5" />
      <rect x="6" y="7" width="9" height="8" rx="1.5" fill="#fff" />
      <rect x="17" y="7" width="9" height="12" rx="1.5" fill="#c7d2fe" />
      <rect x="6" y="17" width="9" height="8" rx="1.5" fill="#c7d2fe" />
      <rect x="17" y="21" width="9" height="4" rx="1.5" fill="#fff" />
    </svg>
  );
}

/**
 * The logo goes to /dashboard for a signed-in user, else to the landing page. Its visible
 * words are its name; only the collapsed (icon-only) logo needs an aria-label.
 */
export function Logo({ signedIn, collapsed = false, light = false }: { signedIn: boolean; collapsed?: boolean; light?: boolean }) {
  return (
    <Link to={signedIn ? "/dashboard" : "/"} className={`gs-logo${light ? " gs-logo--light" : ""}`} aria-label={collapsed ? APP_NAME : undefined}>
      <LogoMark />
      {!collapsed && (
        <span className="gs-logo__text">
          GangSheet <strong>Studio</strong>
        </span>
      )}
    </Link>
  );
}
