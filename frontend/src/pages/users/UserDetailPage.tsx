import { Card, Col, Descriptions, Flex, Row, Tag } from "antd";
import { useUpdate } from "@refinedev/core";
import { useParams } from "react-router";
import { useSearchParams } from "../../lib/searchParams";
import { formatPhoneNumberIntl } from "react-phone-number-input";
import { fullName } from "../../api/types";
import { PageShell } from "../../components/common/PageShell";
import { FullScreenSpinner } from "../../components/common/Spinners";
import { PrintStatusSelect } from "../../components/prints/PrintBits";
import { printColumns } from "../../components/prints/printColumns";
import type { Print } from "../../api/types";
import { DataTable } from "../../components/table/DataTable";
import { CreditStats } from "../../components/users/CreditStats";
import { ProfileForm } from "../../components/users/ProfileForm";
import { useProfile } from "../../hooks/useProfile";
import { openModalParams } from "../../lib/queryModal";
import { useUrlList } from "../../lib/urlList";
import { EditCreditModal } from "./UserModals";
import { AddCreditCard, CreditHistoryCard } from "./CreditTools";
import { useResourceList, useResourceOne } from "../../hooks/useResource";

/** /users/{id}: credits (click to edit), the user's profile, adding credit, the credit history and the user's prints. */
export function UserDetailPage() {
  const { id = "" } = useParams();
  const [, setParams] = useSearchParams();
  const { result: user, query } = useResourceOne("users", id);
  const { mutateAsync: update } = useUpdate();

  if (query.isLoading || !user) return <FullScreenSpinner />;

  return (
    <PageShell title={user.username} crumbs={[{ title: "Users", to: "/users" }, { title: user.username }]} heading={fullName(user)}>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={9}>
          <Card>
            <CreditStats
              available={user.credit.availableCredits}
              used={user.credit.usedCredits}
              onEdit={() => setParams((p) => openModalParams(p, "editCredit", user._id))}
            />
            <Descriptions column={1} size="small" style={{ marginTop: 20 }}>
              <Descriptions.Item label="Username">{user.username}</Descriptions.Item>
              <Descriptions.Item label="Email">{user.email}</Descriptions.Item>
              <Descriptions.Item label="Company">{user.company || "—"}</Descriptions.Item>
              <Descriptions.Item label="Phone">{user.phone ? formatPhoneNumberIntl(user.phone) || user.phone : "—"}</Descriptions.Item>
              <Descriptions.Item label="Role"><Tag>{user.role}</Tag></Descriptions.Item>
              <Descriptions.Item label="Status">
                <Tag color={user.status === "active" ? "green" : "red"}>{user.status}</Tag>
              </Descriptions.Item>
              <Descriptions.Item label="E-mail verified">{user.emailVerified ? "Yes" : "No"}</Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} lg={15}>
          <Card title="Update Profile Information">
            <ProfileForm
              user={user}
              fields={["firstName", "lastName", "email", "role"]}
              onSubmit={(values) =>
                update({
                  resource: "users",
                  id: user._id,
                  values,
                  successNotification: () => ({ type: "success", message: "Profile Updated Successfully" }),
                })
              }
            />
          </Card>
        </Col>
      </Row>
      <div style={{ marginTop: 24 }}>
        <AddCreditCard user={user} onAdded={() => query.refetch()} />
      </div>
      <CreditHistoryCard userId={user._id} />
      <UserPrints userId={user._id} />
      <EditCreditModal />
    </PageShell>
  );
}

/**
 * The user's prints (GET /api/print/user/{id}, admin only), with the prints list's
 * columns; page, size and status live in the URL. The print page edits, processes and
 * deletes, which the server keeps to the owner (an admin may only read another user's
 * print), so rows link to /prints/{id} only for the admin's own prints, and there are no
 * Process or Delete columns.
 */
function UserPrints({ userId }: { userId: string }) {
  const list = useUrlList({ filters: ["status"] });
  const { profile } = useProfile();
  const { result, query } = useResourceList("print", { meta: { path: "/api/print/user/{userId}", params: { userId } }, ...list.refine });
  const own = profile?._id === userId;
  const columns = printColumns({ canOpen: () => own });

  return (
    <Card title="Prints" style={{ marginTop: 24 }} data-testid="user-prints">
      <Flex gap={12} wrap style={{ marginBottom: 16 }}>
        <PrintStatusSelect value={list.state.filters.status} onChange={(v) => list.setFilter("status", v)} />
      </Flex>
      <DataTable<Print> columns={columns} list={list} dataSource={result.data ?? []} total={result.total ?? 0} loading={query.isLoading} />
    </Card>
  );
}
