/**
 * The S3-compatible server of the S3 tests: Ceph's RADOS Gateway started by
 * backend/test/ceph/ceph-rgw.sh (CI runs it before `npm test` and exports S3_TEST_*).
 * Under CI a missing server is an error; elsewhere the S3 suites are skipped with a warning.
 */
export const S3_TEST = {
  endpoint: process.env.S3_TEST_ENDPOINT,
  region: process.env.S3_TEST_REGION ?? 'us-east-1',
  accessKeyId: process.env.S3_TEST_ACCESS_KEY_ID,
  secretAccessKey: process.env.S3_TEST_SECRET_ACCESS_KEY,
};

/** Whether the S3 server is configured; `what` names the skipped suite in the warning. */
export function s3TestConfigured(what: string): boolean {
  const configured = !!(S3_TEST.endpoint && S3_TEST.accessKeyId && S3_TEST.secretAccessKey);
  if (!configured && process.env.CI) {
    throw new Error('S3_TEST_ENDPOINT/ACCESS_KEY_ID/SECRET_ACCESS_KEY are not set: .ci/run starts Ceph RGW (backend/test/ceph/ceph-rgw.sh) before the tests');
  }
  if (!configured) console.warn(`${what} skipped: no S3_TEST_ENDPOINT. Run \`eval "$(backend/test/ceph/ceph-rgw.sh start)"\` first.`);
  return configured;
}
