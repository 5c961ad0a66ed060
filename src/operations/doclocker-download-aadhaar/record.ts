// Owns how a downloaded Aadhaar record is kept: never with its photo. The sandbox photo is regenerated
// from the stored identity; a live photo is returned once, in the first answer, and never stored.
// Xml_Url serves the record under XML_PATH.
import { sandboxPhoto } from '../../providers/sandbox/index.js';
import type { Unstored } from '../operation.js';

export const XML_PATH = '/files/aadhaar-xml/';

type Record_ = Record<string, unknown>;
const photoless = (data: Record_): Record_ => {
  const x = data.Aadhaar_Xml_Data as Record_ | undefined;
  if (!x) return data;
  const { Profile_Image: _, ...rest } = x;
  return { ...data, Aadhaar_Xml_Data: rest };
};

export const withPhoto = (data: Record_): Record_ => {
  const x = data.Aadhaar_Xml_Data as Record_ | undefined;
  if (!x) return data;
  return { ...data, Aadhaar_Xml_Data: { ...x, Profile_Image: sandboxPhoto(`${String(x.Full_Name)}|${String(x.Dob)}`) } };
};

// The sandbox photo is regenerated from the stored identity. A live photo is returned once, in the first
// answer, and never stored: replays and GET /transactions show the record without it.
export const unstored: Unstored = { strip: photoless, hydrate: (data, environment) => (environment === 'sandbox' ? withPhoto(data) : data) };

