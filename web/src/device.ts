/** This device's id, sent with every location scan (`device_id`); made once and kept. */
export const deviceId = (storage: Pick<Storage, 'getItem' | 'setItem'>): string => {
  const existing = storage.getItem('cargo.device');
  if (existing !== null) return existing;
  const id = `HH-${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  storage.setItem('cargo.device', id);
  return id;
};
