import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { unstableSetRender } from "antd";
import "@refinedev/antd/dist/reset.css";
import "./styles.css";
import { createAppRouter } from "./App";

// antd 5's static helpers (Modal.confirm, message) render through this hook on React 19.
unstableSetRender((node, container) => {
  const el = container as Element & { _gsRoot?: ReturnType<typeof createRoot> };
  el._gsRoot ??= createRoot(el);
  el._gsRoot.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    el._gsRoot?.unmount();
  };
});

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <RouterProvider router={createAppRouter()} />
  </StrictMode>,
);
