/**
 * The demo ERP plan's box BOX-1003 (order SO-24002, its only box) as the service shows it before
 * anything of it is boxed: every item line with its plan and nothing boxed.
 */
export const box1003Lines = [
  { item_code: 'SKU-OIL-1L', item_name: 'Peanut oil 1 L', unit: 'bottle', planned_quantity: 12, boxed_quantity: 0 },
  { item_code: 'SKU-RICE-5K', item_name: 'Jasmine rice 5 kg', unit: 'bag', planned_quantity: 8, boxed_quantity: 0 },
  { item_code: 'SKU-SALT-500', item_name: 'Sea salt 500 g', unit: 'bag', planned_quantity: 20, boxed_quantity: 0 },
];
