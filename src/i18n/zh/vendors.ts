/** resources.vendor: 供应商管理 (/vendor) */
export const vendors = {
  name: '供应商管理',
  create_title: '添加供应商',
  edit_title: '编辑供应商',
  fields: {
    keyword: '搜索名称或描述',
    id: 'ID',
    name: '名称',
    description: '描述',
    icon: '图标（图标名称或 http(s) 地址）',
    status: '状态',
    model_count: '模型数',
    updated_time: '更新时间',
    actions: '操作',
  },
  statuses: {
    enabled: '已启用',
    disabled: '已禁用',
  },
  validation: {
    name_length: '最多 128 个字符',
    icon: '图标名称（字母、数字、"."、"_"、"-"）或 http(s) 地址',
  },
  actions: {
    enable: '启用',
    disable: '禁用',
    delete: '删除',
  },
  confirm: {
    delete_title: '删除供应商 %{name}？',
    delete_content: '其模型保留元数据，但不再有供应商。',
  },
  notification: {
    created: '供应商已添加',
    updated: '供应商已更新',
    deleted: '供应商已删除',
    status_changed: '操作成功！',
  },
};
