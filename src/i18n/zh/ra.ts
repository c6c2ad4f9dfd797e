import type { TranslationMessages } from 'react-admin';
import chineseMessages from 'ra-language-chinese';

/**
 * ra-language-chinese dates from react-admin 3: the keys react-admin 5 added are translated here
 * and deep-merged over it, so nested groups (ra.action, ra.message …) keep the package's entries.
 */
const additions = {
  ra: {
    action: {
      clear_array_input: '清空列表',
      create_item: '新建 %{item}',
      remove_all_filters: '移除全部检索',
      reset: '重置',
      search_columns: '搜索列',
      select_all: '全选',
      select_all_button: '全选',
      select_row: '选择此行',
      update: '更新',
      move_up: '上移',
      move_down: '下移',
      open: '打开',
      toggle_theme: '切换明暗主题',
      select_columns: '列',
      update_application: '重新加载应用',
    },
    page: {
      edit: '%{name} %{recordRepresentation}',
      show: '%{name} %{recordRepresentation}',
      access_denied: '无权访问',
      authentication_error: '认证错误',
    },
    message: {
      access_denied: '您没有访问此页面的权限',
      authentication_error: '认证服务返回错误，无法校验您的凭据。',
      auth_error: '校验认证令牌时出错。',
      bulk_update_content: '确定要更新 %{name} %{recordRepresentation} 吗？ |||| 确定要更新这 %{smart_count} 项吗？',
      bulk_update_title: '更新 %{name} %{recordRepresentation} |||| 更新 %{smart_count} 项 %{name}',
      clear_array_input: '确定要清空整个列表吗？',
      details: '详情',
      select_all_limit_reached: '条目过多，无法全部选中。仅选中了前 %{max} 项。',
      placeholder_data_warning: '网络问题：数据刷新失败。',
    },
    navigation: {
      clear_filters: '清除检索',
      no_filtered_results: '按当前检索条件未找到 %{name}',
      partial_page_range_info: '%{offsetBegin}-%{offsetEnd} / 超过 %{offsetEnd}',
      current_page: '第 %{page} 页',
      page: '转到第 %{page} 页',
      first: '转到第一页',
      last: '转到最后一页',
      previous: '转到上一页',
    },
    auth: {
      email: '邮箱',
    },
    notification: {
      not_authorized: '您无权访问此资源。',
      application_update_available: '有新版本可用。',
      offline: '网络未连接，无法获取数据。',
    },
    validation: {
      unique: '必须唯一',
    },
    saved_queries: {
      label: '已保存的查询',
      query_name: '查询名称',
      new_label: '保存当前查询...',
      new_dialog_title: '将当前查询保存为',
      remove_label: '删除已保存的查询',
      remove_label_with_name: '删除查询 "%{name}"',
      remove_dialog_title: '删除已保存的查询？',
      remove_message: '确定要从已保存的查询中删除该项吗？',
      help: '检索列表并保存此查询以便之后使用',
    },
    guesser: {
      empty: {
        title: '没有可显示的数据',
        message: '请检查您的 dataProvider',
      },
    },
    configurable: {
      customize: '自定义',
      configureMode: '配置此页面',
      inspector: {
        title: '检查器',
        content: '将鼠标悬停在界面元素上以进行配置',
        reset: '重置设置',
        hideAll: '全部隐藏',
        showAll: '全部显示',
      },
      Datagrid: {
        title: '数据表格',
        unlabeled: '未命名列 #%{column}',
      },
      SimpleForm: {
        title: '表单',
        unlabeled: '未命名输入 #%{input}',
      },
      SimpleList: {
        title: '列表',
        primaryText: '主要文本',
        secondaryText: '次要文本',
        tertiaryText: '第三文本',
      },
    },
  },
};

type Tree = { [key: string]: string | Tree };

function deepMerge(base: Tree, extra: Tree): Tree {
  const out: Tree = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = out[key];
    out[key] = typeof value === 'object' && typeof current === 'object' ? deepMerge(current, value) : value;
  }
  return out;
}

/** `ra.navigation.prev` is a react-admin 3 key that version 5 replaced with `previous`. */
function withoutObsolete(messages: Tree): Tree {
  const ra = messages.ra as Tree;
  const { prev: _prev, ...navigation } = ra.navigation as Tree;
  return { ...messages, ra: { ...ra, navigation } };
}

export const ra = withoutObsolete(deepMerge(chineseMessages as Tree, additions)) as TranslationMessages;
