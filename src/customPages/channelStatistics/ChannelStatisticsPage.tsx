/** /channelStatistics: usage per channel and model, with CSV export. */
export default function ChannelStatisticsPage() {
  return null;
}
