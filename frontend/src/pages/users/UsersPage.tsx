import { Button, Card, Flex, Space, Switch, Tag, Tooltip } from "antd";
import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import { useUpdate } from "@refinedev/core";
import { Link } from "react-router";
import { fullName, type User } from "../../api/types";
import { PageShell } from "../../components/common/PageShell";
import { DataTable, type DataColumn } from "../../components/table/DataTable";
import { SearchBox } from "../../components/table/SearchBox";
import { useOpenModal } from "../../lib/queryModal";
import { useUrlList } from "../../lib/urlList";
import { AddUserModal, DeleteUserModal, EditCreditModal, EditUserModal } from "./UserModals";
import { useResourceList } from "../../hooks/useResource";

export function UsersPage() {
  const list = useUrlList();
  const { result, query } = useResourceList("users", { ...list.refine });
  const { mutate: update } = useUpdate();
  const open = useOpenModal();

  const columns: DataColumn<User>[] = [
    { key: "name", title: "Name", sortField: "firstName", render: (_, u) => fullName(u) },
    { key: "username", title: "Username", dataIndex: "username", sortField: "username" },
    { key: "email", title: "Email", dataIndex: "email", sortField: "email" },
    {
      key: "role",
      title: "Role",
      dataIndex: "role",
      sortField: "role",
      render: (role: User["role"]) => <Tag color={role === "admin" ? "purple" : "default"}>{role}</Tag>,
    },
    {
      key: "credit",
      title: "Credit",
      sortField: "availableCredits",
      render: (_, u) => (
        <Tooltip title="Edit credit">
          <Button size="small" type="link" onClick={() => open("editCredit", u._id)}>{u.credit.availableCredits}</Button>
        </Tooltip>
      ),
    },
    {
      key: "status",
      title: "Status",
      sortField: "status",
      render: (_, u) => (
        <Switch
          checked={u.status === "active"}
          checkedChildren="Active"
          unCheckedChildren="Inactive"
          aria-label={`Status of ${u.username}`}
          onChange={(on) =>
            update({
              resource: "users",
              id: u._id,
              values: { status: on ? "active" : "inactive" },
              meta: { path: "/api/users/{id}/status" },
              successNotification: (data) => ({ type: "success", message: (data as { message?: string })?.message ?? `User ${on ? "activated" : "deactivated"}` }),
            })
          }
        />
      ),
    },
    {
      key: "actions",
      title: "",
      align: "right",
      render: (_, u) => (
        <Space>
          <Tooltip title="Edit"><Button size="small" icon={<EditOutlined />} onClick={() => open("editUser", u._id)} aria-label={`Edit ${u.username}`} /></Tooltip>
          <Tooltip title="Delete"><Button size="small" danger icon={<DeleteOutlined />} onClick={() => open("deleteUser", u._id)} aria-label={`Delete ${u.username}`} /></Tooltip>
          <Link to={`/users/${u._id}`}>Details</Link>
        </Space>
      ),
    },
  ];

  return (
    <PageShell
      title="Users"
      extra={<Button type="primary" icon={<PlusOutlined />} onClick={() => open("addUser")}>Add User</Button>}
    >
      <Card>
        <Flex justify="space-between" style={{ marginBottom: 16 }}>
          <SearchBox value={list.state.search} onSearch={list.setSearch} placeholder="Search users" />
        </Flex>
        <DataTable<User> columns={columns} list={list} dataSource={result.data} total={result.total ?? 0} loading={query.isLoading} />
      </Card>
      <AddUserModal />
      <EditUserModal />
      <DeleteUserModal />
      <EditCreditModal />
    </PageShell>
  );
}
