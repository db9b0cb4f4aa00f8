import { useCallback, useEffect, useRef, useState } from "react";
import { api, call } from "../../api/client";
import type { CaptchaProvider } from "../../api/types";
import { toast } from "../../lib/toast";
import { useApiQuery } from "../../api/query";

export const CAPTCHA_FAILED = "Captcha verification failed. Please try again.";

const SCRIPTS: Record<Exclude<CaptchaProvider, "none">, { src: string; global: string }> = {
  recaptcha: { src: "https://www.google.com/recaptcha/api.js?render=explicit", global: "grecaptcha" },
  turnstile: { src: "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit", global: "turnstile" },
};

interface WidgetApi {
  render: (el: HTMLElement, opts: Record<string, unknown>) => string | number;
  reset: (id?: string | number) => void;
}

const loading = new Map<string, Promise<WidgetApi>>();

/** Loads a provider's script once and resolves with its global widget API. */
function loadWidget(provider: Exclude<CaptchaProvider, "none">): Promise<WidgetApi> {
  const { src, global } = SCRIPTS[provider];
  const existing = loading.get(provider);
  if (existing) return existing;
  const promise = new Promise<WidgetApi>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onerror = () => reject(new Error(`Could not load ${provider}`));
    document.head.appendChild(script);
    // Both APIs appear on window some time after the script's load event (recaptcha
    // needs its "ready"); polling covers both without provider-specific callbacks.
    const started = Date.now();
    const poll = setInterval(() => {
      const api = (window as unknown as Record<string, WidgetApi | undefined>)[global];
      if (api?.render) {
        clearInterval(poll);
        resolve(api);
      } else if (Date.now() - started > 15_000) {
        clearInterval(poll);
        reject(new Error(`${provider} did not load`));
      }
    }, 100);
  });
  loading.set(provider, promise);
  return promise;
}

export function useAuthConfig() {
  return useApiQuery(["/api/auth/config"], () => api.GET("/api/auth/config"), { silent: true, staleTime: Infinity, retry: 1, select: (r) => r.data });
}

/**
 * Captcha for login and signup. `required` is false when the server says provider "none".
 * `verify()` sends the token to POST /api/verify-captcha before the form is submitted;
 * the server then remembers the pass in a short-lived cookie.
 */
export function useCaptcha() {
  const { data: config, isLoading } = useAuthConfig();
  const provider = config?.captcha.provider ?? "none";
  const siteKey = config?.captcha.siteKey ?? "";
  const [token, setToken] = useState<string | null>(null);
  const container = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: WidgetApi; id: string | number } | null>(null);

  useEffect(() => {
    if (provider === "none" || !siteKey || !container.current) return;
    let cancelled = false;
    const el = container.current;
    loadWidget(provider)
      .then((api) => {
        if (cancelled) return;
        const id = api.render(el, {
          sitekey: siteKey,
          callback: (t: string) => setToken(t),
          "expired-callback": () => setToken(null),
          "error-callback": () => setToken(null),
        });
        widget.current = { api, id };
      })
      .catch(() => toast.error(CAPTCHA_FAILED));
    return () => {
      cancelled = true;
      el.innerHTML = "";
      widget.current = null;
    };
  }, [provider, siteKey]);

  const reset = useCallback(() => {
    setToken(null);
    widget.current?.api.reset(widget.current.id);
  }, []);

  const verify = useCallback(async () => {
    if (provider === "none") return true;
    if (!token) return false;
    try {
      const res = await call(api.POST("/api/verify-captcha", { body: { token } }), { silent: true });
      if (res?.data?.success) return true;
    } catch {
      /* reported below */
    }
    toast.error(CAPTCHA_FAILED);
    reset();
    return false;
  }, [provider, token, reset]);

  return { required: provider !== "none", loading: isLoading, token, container, verify, reset };
}

/** antd Form rule for the captcha field; message differs between login and signup. */
export const captchaRule = (captcha: { required: boolean; token: string | null }, message: string) => ({
  validator: () => (!captcha.required || captcha.token ? Promise.resolve() : Promise.reject(new Error(message))),
});
