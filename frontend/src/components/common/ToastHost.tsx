import { useEffect } from "react";
import { App } from "antd";
import { registerToastApi } from "../../lib/toast";

/** Hands antd's themed notification instance to lib/toast (must sit inside antd <App>). */
export function ToastHost() {
  const { notification } = App.useApp();
  useEffect(() => {
    registerToastApi(notification);
    return () => registerToastApi(null);
  }, [notification]);
  return null;
}
