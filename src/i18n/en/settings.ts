/** settings: the /setting page's tabs and what every tab shares (save messages). */
export const settings = {
  tabs: {
    operation: 'Operation',
    ratelimit: 'Rate limit',
    models: 'Models',
    system: 'System',
    other: 'Other',
  },
  common: {
    no_change: 'You seem not to have changed anything',
    saved: 'Saved',
    save_partial: 'Some settings failed to save, please retry',
    save_failed: 'Save failed, please retry',
    save_failed_single: 'Save failed',
    invalid_json: 'Not a valid JSON string',
  },
};
