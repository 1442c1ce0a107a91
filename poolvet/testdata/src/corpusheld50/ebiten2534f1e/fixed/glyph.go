package fixed

import (
	"image"
	"image/draw"
)

// Image stands in for *ebiten.Image.
type Image struct {
	w, h int
	pix  *ManagedBytes
}

// NewImageFromImage stands in for ebiten.NewImageFromImage: it copies the
// source pixels into the new image.
func NewImageFromImage(src *image.RGBA) *Image {
	b := src.Bounds()
	return &Image{
		w: b.Dx(),
		h: b.Dy(),
		pix: NewManagedBytes(len(src.Pix), func(bs []byte) {
			copy(bs, src.Pix)
		}),
	}
}

// rasterizer stands in for golang.org/x/image/vector.Rasterizer.
type rasterizer struct {
	DrawOp draw.Op
	mask   *image.Alpha
}

func newRasterizer(w, h int) *rasterizer {
	return &rasterizer{mask: image.NewAlpha(image.Rect(0, 0, w, h))}
}

func (z *rasterizer) Draw(dst draw.Image, r image.Rectangle, src image.Image, sp image.Point) {
	draw.DrawMask(dst, r, src, sp, z.mask, r.Min, z.DrawOp)
}

// drawer stands in for golang.org/x/image/font.Drawer: it composites the
// glyph mask with draw.Over, touching only the glyph's pixels.
type drawer struct {
	Dst  draw.Image
	Src  image.Image
	Dot  image.Point
	mask func(r rune) (image.Rectangle, image.Image)
}

func (d *drawer) DrawString(s string) {
	for _, r := range s {
		dr, mask := d.mask(r)
		dr = dr.Add(d.Dot)
		draw.DrawMask(d.Dst, dr, d.Src, image.Point{}, mask, image.Point{}, draw.Over)
	}
}

func segmentsToImage(w, h int) *Image {
	if w == 0 || h == 0 {
		return nil
	}
	w++
	h++

	rast := newRasterizer(w, h)
	rast.DrawOp = draw.Src

	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	rast.Draw(dst, dst.Bounds(), image.Opaque, image.Point{})
	return NewImageFromImage(dst)
}

type GoXFace struct {
	mask func(r rune) (image.Rectangle, image.Image)
}

func (g *GoXFace) glyphImageImpl(r rune, dot image.Point, w, h int) *Image {
	if w == 0 || h == 0 {
		return nil
	}

	// Add always 1 to the size.
	w++
	h++

	rgba := image.NewRGBA(image.Rect(0, 0, w, h))

	d := drawer{
		Dst:  rgba,
		Src:  image.White,
		Dot:  dot,
		mask: g.mask,
	}
	d.DrawString(string(r))

	return NewImageFromImage(rgba)
}
