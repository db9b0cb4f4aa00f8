import { Button, Result } from "antd";
import { Link, isRouteErrorResponse, useRouteError } from "react-router";
import { usePageTitle } from "../../lib/title";

export const NOT_FOUND_TEXT = "404 Not Found";
export const NOT_AUTHORIZED_TEXT = "You are not authorized to view this page";

export function NotFoundPage() {
  usePageTitle("Not Found");
  return (
    <Result
      status="404"
      title={NOT_FOUND_TEXT}
      subTitle="The page you are looking for does not exist."
      extra={<Link to="/"><Button type="primary">Go to Homepage</Button></Link>}
    />
  );
}

export function NotAuthorized() {
  usePageTitle("Not Authorized");
  return <Result status="403" title={NOT_AUTHORIZED_TEXT} />;
}

/** Router errorElement: 'Unexpected Application Error!' and the status/text or message. */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error ?? "");
  return (
    <div style={{ padding: 48 }}>
      <h2>Unexpected Application Error!</h2>
      <h3 style={{ fontStyle: "italic" }}>{detail}</h3>
    </div>
  );
}
