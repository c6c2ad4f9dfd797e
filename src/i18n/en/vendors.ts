/** resources.vendor: Vendors (/vendor) */
export const vendors = {
  name: 'Vendors',
  create_title: 'Add vendor',
  edit_title: 'Edit vendor',
  fields: {
    keyword: 'Search name or description',
    id: 'ID',
    name: 'Name',
    description: 'Description',
    icon: 'Icon (icon name or http(s) address)',
    status: 'Status',
    model_count: 'Models',
    updated_time: 'Updated',
    actions: 'Actions',
  },
  statuses: {
    enabled: 'Enabled',
    disabled: 'Disabled',
  },
  validation: {
    name_length: 'At most 128 characters',
    icon: 'An icon name (letters, digits, ".", "_", "-") or an http(s) address',
  },
  actions: {
    enable: 'Enable',
    disable: 'Disable',
    delete: 'Delete',
  },
  confirm: {
    delete_title: 'Delete the vendor %{name}?',
    delete_content: 'Its models keep their metadata without a vendor.',
  },
  notification: {
    created: 'Vendor added',
    updated: 'Vendor updated',
    deleted: 'Vendor deleted',
    status_changed: 'Done!',
  },
};
