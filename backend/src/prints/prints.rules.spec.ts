import { ImageStatus } from '../images/entities/image.entity';
import { itemProblem, MSG } from './prints.rules';

const settings = { width: 22, maxLength: 100, margin: 0.25, dpi: 300, rotate: true };
const image = (over: Partial<Parameters<typeof itemProblem>[0]['image'] & object> = {}) => ({
  name: 'art',
  status: ImageStatus.Ready,
  trim: { width: 1000, height: 500 },
  width: 1200,
  height: 600,
  ...over,
});

describe('itemProblem (the item-readiness rule)', () => {
  it('a ready image at a size that fits → null', () => {
    expect(itemProblem({ image: image(), size: { value: 10 } }, settings)).toBeNull();
  });

  it('missing image or size', () => {
    expect(itemProblem({ image: null, size: { value: 10 } }, settings)).toEqual({ code: 'image_missing', message: MSG.imageMissing });
    expect(itemProblem({ image: image(), size: null }, settings)).toEqual({ code: 'size_missing', message: MSG.sizeMissing });
  });

  it('an image still processing, failed, or without its measurements is not ready', () => {
    expect(itemProblem({ image: image({ status: ImageStatus.Processing }), size: { value: 10 } }, settings)).toEqual({
      code: 'image_not_ready',
      message: MSG.imageProcessing('art'),
    });
    expect(itemProblem({ image: image({ status: ImageStatus.Error }), size: { value: 10 } }, settings)?.message).toBe(MSG.imageUnreadable('art'));
    expect(itemProblem({ image: image({ trim: null }), size: { value: 10 } }, settings)?.code).toBe('image_not_ready');
    expect(itemProblem({ image: image({ width: null }), size: { value: 10 } }, settings)?.code).toBe('image_not_ready');
  });

  it('a copy that does not fit the sheet is too large, with its printed size', () => {
    // 60 x 30 in: too wide even turned (30 > 21.5)
    expect(itemProblem({ image: image(), size: { value: 60 } }, settings)).toEqual({
      code: 'too_large',
      message: 'Design "art" is 60 x 30 in and does not fit a 22 x 100 in sheet with 0.25 in margins.',
    });
    // 40 x 20 in fits turned, not when rotation is off
    expect(itemProblem({ image: image(), size: { value: 40 } }, settings)).toBeNull();
    expect(itemProblem({ image: image(), size: { value: 40 } }, { ...settings, rotate: false })?.code).toBe('too_large');
  });
});
