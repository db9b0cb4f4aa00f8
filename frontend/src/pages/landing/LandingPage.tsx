import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import {
  AppstoreOutlined, ApiOutlined, CloseOutlined, ColumnWidthOutlined, DashboardOutlined, EditOutlined,
  EyeOutlined, LayoutOutlined, MenuOutlined, SortAscendingOutlined, ThunderboltOutlined,
} from "@ant-design/icons";
import { Logo } from "../../components/common/Logo";
import { usePageTitle } from "../../lib/title";
import { SolutionVisual } from "./SolutionVisual";
import "./landing.css";

export const HEADER_HIDE_AFTER_PX = 10;
export const CONTACT_EMAIL = "hello@gangsheet.studio";

const SOLUTIONS = [
  {
    key: "dashboard",
    tab: "User Dashboard Access",
    title: "Everything about your sheets on one dashboard",
    text: "See pending and finished prints, orders waiting from your shops, images you have used and the credits you have left, the moment you sign in.",
    points: ["Live status of every print", "Orders from all your shops in one list", "Credit balance and history at a glance"],
  },
  {
    key: "automated",
    tab: "Automated Image Placement",
    title: "Designs packed tightly, automatically",
    text: "Pick your designs, sizes and quantities. GangSheet Studio lays every copy out on your film width with the gaps you set, so you waste less film on every sheet.",
    points: ["Packs to 22 in film or any width you use", "Rotates designs when it saves space", "300 DPI print-ready PNG with transparency"],
  },
  {
    key: "manual",
    tab: "Manual Image Entry",
    title: "Build a sheet by hand when you want control",
    text: "Choose images from your library, set a size and quantity for each, review the list and process it. Save a draft and come back to it whenever you like.",
    points: ["Image library with categories and ratings", "Sizes saved once, reused everywhere", "Drafts you can edit before processing"],
  },
] as const;

const FEATURES = [
  { icon: <AppstoreOutlined />, title: "Customizable Templates", text: "Save the film width, gaps and margins you print with and reuse them for every sheet." },
  { icon: <LayoutOutlined />, title: "Layout Adjustment", text: "Fine-tune sizes and quantities and re-run the layout until the sheet is exactly right." },
  { icon: <ThunderboltOutlined />, title: "Batch Processing", text: "Turn a whole day of orders into sheets in one go; we e-mail you when the files are ready." },
  { icon: <EyeOutlined />, title: "Real-time Preview", text: "Watch progress live and preview every sheet before you download the print file." },
  { icon: <ApiOutlined />, title: "API Integration", text: "Connect your Etsy and WooCommerce shops and pull orders straight into prints." },
  { icon: <SortAscendingOutlined />, title: "Automated Image Sorting", text: "Designs are matched to orders by SKU and sorted into categories you define." },
];

/** Public landing page; the logo leads here for visitors who are not signed in. */
export function LandingPage() {
  usePageTitle("Gang sheets made simple");
  const [hidden, setHidden] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [tab, setTab] = useState<(typeof SOLUTIONS)[number]["key"]>("automated");
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const onScroll = () => setHidden(window.scrollY > HEADER_HIDE_AFTER_PX);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  useEffect(() => {
    if (!menuOpen) return;
    const onPointer = (e: MouseEvent | TouchEvent) => {
      if (menuRef.current && !menuRef.current.contains(e.target as Node)) setMenuOpen(false);
    };
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setMenuOpen(false);
    document.addEventListener("mousedown", onPointer);
    document.addEventListener("touchstart", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onPointer);
      document.removeEventListener("touchstart", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [menuOpen]);

  const scrollToFeatures = () => document.getElementById("features")?.scrollIntoView({ behavior: "smooth" });
  const current = SOLUTIONS.find((s) => s.key === tab)!;

  return (
    <div className="lp">
      <header className={`lp-header${hidden ? " lp-header--hidden" : ""}`} data-testid="landing-header">
        <div className="lp-container lp-header__inner" ref={menuRef}>
          <Logo signedIn={false} />
          <nav className="lp-nav" aria-label="Main">
            <a href="#solutions">Solutions</a>
            <a href="#features">Features</a>
            <a href="#contact">Contact</a>
          </nav>
          <div className="lp-header__actions">
            <Link to="/auth/signin" className="lp-btn lp-btn--ghost">Sign in</Link>
            <Link to="/auth/signup" className="lp-btn lp-btn--primary">Sign up</Link>
          </div>
          <button className="lp-burger" aria-label={menuOpen ? "Close menu" : "Open menu"} aria-expanded={menuOpen} onClick={() => setMenuOpen((o) => !o)}>
            {menuOpen ? <CloseOutlined /> : <MenuOutlined />}
          </button>
          {menuOpen && (
            <div className="lp-mobile-menu" role="menu" data-testid="mobile-menu">
              <a href="#solutions" onClick={() => setMenuOpen(false)}>Solutions</a>
              <a href="#features" onClick={() => setMenuOpen(false)}>Features</a>
              <a href="#contact" onClick={() => setMenuOpen(false)}>Contact</a>
              <Link to="/auth/signin" className="lp-btn lp-btn--ghost">Sign in</Link>
              <Link to="/auth/signup" className="lp-btn lp-btn--primary">Sign up</Link>
            </div>
          )}
        </div>
      </header>

      <main>
        <section className="lp-hero">
          <div className="lp-container lp-hero__inner">
            <div className="lp-hero__copy">
              <span className="lp-eyebrow">Welcome to GangSheet Studio</span>
              <h1>Gang sheets, laid out for you in seconds</h1>
              <p>
                Upload your designs, choose sizes and quantities, and get print-ready DTF gang sheets packed
                tightly on your film. Orders from your shops turn into sheets without copy and paste.
              </p>
              <div className="lp-hero__cta">
                <Link to="/auth/signup" className="lp-btn lp-btn--primary lp-btn--lg">Start free trial</Link>
                <button type="button" className="lp-btn lp-btn--outline lp-btn--lg" onClick={scrollToFeatures}>Learn more</button>
              </div>
              <ul className="lp-hero__facts">
                <li><strong>300 DPI</strong> print-ready PNG</li>
                <li><strong>22 in</strong> film or any width</li>
                <li><strong>Etsy &amp; WooCommerce</strong> orders</li>
              </ul>
            </div>
            <div className="lp-hero__visual" aria-hidden>
              <SolutionVisual variant="automated" />
            </div>
          </div>
        </section>

        <section className="lp-section" id="solutions">
          <div className="lp-container">
            <h2 className="lp-section__title">Explore The Solutions</h2>
            <p className="lp-section__lead">From the first upload to the finished film, one place for your whole gang-sheet workflow.</p>
            <div className="lp-tabs" role="tablist">
              {SOLUTIONS.map((s) => (
                <button
                  key={s.key}
                  role="tab"
                  aria-selected={tab === s.key}
                  className={`lp-tab${tab === s.key ? " lp-tab--active" : ""}`}
                  onClick={() => setTab(s.key)}
                >
                  {s.key === "dashboard" ? <DashboardOutlined /> : s.key === "automated" ? <ColumnWidthOutlined /> : <EditOutlined />}
                  {s.tab}
                </button>
              ))}
            </div>
            <div className="lp-solution" role="tabpanel">
              <div className="lp-solution__copy">
                <h3>{current.title}</h3>
                <p>{current.text}</p>
                <ul>{current.points.map((p) => <li key={p}>{p}</li>)}</ul>
                <Link to="/auth/signup" className="lp-btn lp-btn--primary">Try it free</Link>
              </div>
              <div className="lp-solution__visual"><SolutionVisual variant={current.key} /></div>
            </div>
          </div>
        </section>

        <section className="lp-section lp-section--muted" id="features">
          <div className="lp-container">
            <h2 className="lp-section__title">Features that save film and time</h2>
            <p className="lp-section__lead">Built with print shops, for print shops.</p>
            <div className="lp-features">
              {FEATURES.map((f) => (
                <article key={f.title} className="lp-feature">
                  <div className="lp-feature__icon">{f.icon}</div>
                  <h3>{f.title}</h3>
                  <p>{f.text}</p>
                </article>
              ))}
            </div>
          </div>
        </section>

        <section className="lp-cta">
          <div className="lp-container lp-cta__inner">
            <h2>Ready to print more with less film?</h2>
            <Link to="/auth/signup" className="lp-btn lp-btn--light lp-btn--lg">Start free trial</Link>
          </div>
        </section>
      </main>

      <footer className="lp-footer" id="contact">
        <div className="lp-container lp-footer__grid">
          <div>
            <Logo signedIn={false} light />
            <p className="lp-footer__muted">Gang-sheet layouts and print-ready files for print sellers.</p>
          </div>
          <div>
            <h4>Contact</h4>
            <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>
            <address>
              GangSheet Studio<br />
              2261 Market Street #4321<br />
              San Francisco, CA 94114, USA
            </address>
          </div>
          <div>
            <h4>Account</h4>
            <Link to="/auth/signin">Sign in</Link>
            <Link to="/auth/signup">Create an account</Link>
            <Link to="/auth/forgot-password">Forgot password</Link>
          </div>
        </div>
        <div className="lp-container lp-footer__legal">
          <p>
            The term &lsquo;Etsy&rsquo; is a trademark of Etsy, Inc. This application uses the Etsy API but is not
            endorsed or certified by Etsy, Inc. WooCommerce and Amazon are trademarks of their respective owners.
          </p>
          <p>© {new Date().getFullYear()} GangSheet Studio. All rights reserved.</p>
        </div>
      </footer>
    </div>
  );
}
