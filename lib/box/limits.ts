/**
 * How many bytes a box's items may come to as one JSON record (`[{"item_code": …, "quantity": …}]`):
 * the save's answer, the box's audit row (its history) and its `box.saved` event each carry them
 * in one Data API result row, which holds at most 64 KB
 * (https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/data-api.limitations.html); the
 * rest of such a row (an event's envelope and order number) is a few KB at most. 500 items with
 * 64-character ASCII codes are about 25 KB; 500 with 64 Chinese characters each are 100 KB.
 */
export const BOX_ITEMS_RECORD_BYTES = 56 * 1024;
