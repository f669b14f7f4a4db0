package main

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"slices"
	"time"
)

// The plot: two panels side by side, median wall time (left) and median
// CPU time, user + system (right), against the number of objects, log-log,
// with min–max bars, for cudalink, nvlink, each program shape, and warm
// relinks through the persistent worker. Drawn with image/png and the
// bitmap font of font.go.

const (
	plotW, plotH = 1000, 640
	marginL      = 130
	marginR      = 30
	marginT      = 60
	marginB      = 80
	textScale    = 2
)

var (
	colBG     = color.RGBA{255, 255, 255, 255}
	colAxis   = color.RGBA{40, 40, 40, 255}
	colGrid   = color.RGBA{225, 225, 225, 255}
	colText   = color.RGBA{20, 20, 20, 255}
	colC      = color.RGBA{31, 119, 180, 255}  // cudalink
	colN      = color.RGBA{214, 39, 40, 255}   // nvlink
	colG      = color.RGBA{255, 127, 14, 255}  // nvlink -g
	colWorker = color.RGBA{44, 160, 44, 255}   // worker
	colCLight = color.RGBA{120, 180, 225, 255} // cudalink, deep chain
	colNLight = color.RGBA{240, 140, 140, 255} // nvlink, deep chain
	colCDark  = color.RGBA{15, 60, 110, 255}   // cudalink, large files
	colNDark  = color.RGBA{120, 20, 20, 255}   // nvlink, large files
)

type point struct {
	x           float64 // objects
	y, ylo, yhi float64 // ms
}

type series struct {
	name   string
	col    color.RGBA
	dashed bool
	marker int // 0 circle, 1 square, 2 triangle, 3 diamond
	pts    []point
}

func writePlot(path string, r *results) error {
	wall, err := drawPanel(r, false)
	if err != nil {
		return err
	}
	img := image.NewRGBA(image.Rect(0, 0, 2*plotW, plotH))
	fill(img, img.Bounds(), colBG)
	draw.Draw(img, wall.Bounds(), wall, image.Point{}, draw.Src)
	if cpu, err := drawPanel(r, true); err == nil {
		draw.Draw(img, wall.Bounds().Add(image.Pt(plotW, 0)), cpu, image.Point{}, draw.Src)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// drawPanel draws one panel: wall time, or CPU time when cpu is set (only
// runs that measured it).
func drawPanel(r *results, cpu bool) (*image.RGBA, error) {
	var ss []*series
	add := func(s *series) {
		if len(s.pts) > 0 {
			slices.SortFunc(s.pts, func(a, b point) int { return int(a.x - b.x) })
			ss = append(ss, s)
		}
	}
	c := &series{name: "cudalink", col: colC, marker: 0}
	n := &series{name: "nvlink", col: colN, marker: 1}
	g := &series{name: "nvlink -g, -G objects", col: colG, dashed: true, marker: 2}
	cg := &series{name: "cudalink -g, -G objects", col: colC, dashed: true, marker: 2}
	w := &series{name: "cudalink worker, warm relink", col: colWorker, dashed: true, marker: 3}
	cc := &series{name: "cudalink, deep chain", col: colCLight, dashed: true, marker: 0}
	nc := &series{name: "nvlink, deep chain", col: colNLight, dashed: true, marker: 1}
	cl := &series{name: "cudalink, large files", col: colCDark, marker: 3}
	nl := &series{name: "nvlink, large files", col: colNDark, marker: 3}
	wl := &series{name: "cudalink worker, warm relink, large files", col: colWorker, marker: 3}
	pt := func(objects int, s *stats) point {
		if cpu {
			return point{float64(objects), msf(s.CPUMedian), msf(s.CPUMin), msf(s.CPUMax)}
		}
		return point{float64(objects), msf(s.WallMedian), msf(s.WallMin), msf(s.WallMax)}
	}
	has := func(s *stats) bool { return s != nil && (!cpu || s.CPUMedian > 0) }
	for _, p := range r.Programs {
		cs, ns := c, n
		switch p.Variant {
		case variantDebug.Name:
			cs, ns = cg, g
		case variantChain.Name:
			cs, ns = cc, nc
		case variantLarge.Name:
			cs, ns = cl, nl
		case variantPTX.Name, variantLTO.Name:
			continue // ptxas's and libnvvm's time, in the tables only
		}
		if has(p.Cudalink) && cs != nil {
			cs.pts = append(cs.pts, pt(p.Objects, p.Cudalink))
		}
		if has(p.Nvlink) {
			ns.pts = append(ns.pts, pt(p.Objects, p.Nvlink))
		}
	}
	for _, ws := range r.Worker {
		if ws.OneChanged || !has(&ws.Warm) {
			continue
		}
		if ws.variant() == variantLarge.Name {
			wl.pts = append(wl.pts, pt(ws.Objects, &ws.Warm))
		} else {
			w.pts = append(w.pts, pt(ws.Objects, &ws.Warm))
		}
	}
	add(n)
	add(g)
	add(nc)
	add(c)
	add(cg)
	add(cc)
	add(nl)
	add(cl)
	add(w)
	add(wl)
	if len(ss) == 0 {
		return nil, fmt.Errorf("nothing to plot")
	}

	// Ranges, in log space.
	var xs []float64
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		for _, p := range s.pts {
			if !slices.Contains(xs, p.x) {
				xs = append(xs, p.x)
			}
			ymin = math.Min(ymin, p.ylo)
			ymax = math.Max(ymax, p.yhi)
		}
	}
	slices.Sort(xs)
	lx0, lx1 := math.Log2(xs[0])-0.35, math.Log2(xs[len(xs)-1])+0.35
	ly0 := math.Floor(math.Log10(ymin/1.2)*4) / 4
	ly1 := math.Ceil(math.Log10(ymax*1.2)*4) / 4
	pw, ph := plotW-marginL-marginR, plotH-marginT-marginB
	px := func(x float64) int { return marginL + int(math.Round((math.Log2(x)-lx0)/(lx1-lx0)*float64(pw))) }
	py := func(y float64) int { return marginT + ph - int(math.Round((math.Log10(y)-ly0)/(ly1-ly0)*float64(ph))) }

	img := image.NewRGBA(image.Rect(0, 0, plotW, plotH))
	fill(img, img.Bounds(), colBG)

	// Grid and ticks: 1-2-5 per decade on y, the measured sizes on x.
	for e := math.Floor(ly0); e <= ly1; e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if lv := math.Log10(v); lv < ly0 || lv > ly1 {
				continue
			}
			y := py(v)
			hline(img, marginL, marginL+pw, y, colGrid)
			hline(img, marginL-6, marginL, y, colAxis)
			label := trimFloat(v)
			drawText(img, marginL-10-textWidth(label), y-glyphH*textScale/2+2, label, colText, false)
		}
	}
	for _, x := range xs {
		X := px(x)
		vline(img, X, marginT, marginT+ph, colGrid)
		vline(img, X, marginT+ph, marginT+ph+6, colAxis)
		label := fmt.Sprint(int(x))
		drawText(img, X-textWidth(label)/2, marginT+ph+12, label, colText, false)
	}
	// Axes.
	hline(img, marginL, marginL+pw, marginT+ph, colAxis)
	vline(img, marginL, marginT, marginT+ph, colAxis)
	hline(img, marginL, marginL+pw, marginT, colAxis)
	vline(img, marginL+pw, marginT, marginT+ph, colAxis)

	title := fmt.Sprintf("wall time against objects linked, %s: median, bars min to max", r.Arch)
	if cpu {
		title = fmt.Sprintf("CPU time (user + system) against objects linked, %s", r.Arch)
	}
	drawText(img, (plotW-textWidth(title))/2, 18, title, colText, false)
	xl := "objects linked (log scale)"
	drawText(img, marginL+(pw-textWidth(xl))/2, plotH-34, xl, colText, false)
	yl := "wall time, ms (log scale)"
	if cpu {
		yl = "CPU time, ms (log scale)"
	}
	drawText(img, 14, marginT+(ph+textWidth(yl))/2, yl, colText, true)

	// Series, each a few pixels to the side of the others so that their
	// bars stay apart.
	for k, s := range ss {
		dx := int(math.Round((float64(k) - float64(len(ss)-1)/2) * 7))
		for i := 1; i < len(s.pts); i++ {
			a, b := s.pts[i-1], s.pts[i]
			line(img, px(a.x)+dx, py(a.y), px(b.x)+dx, py(b.y), s.col, 2, s.dashed)
		}
		for _, p := range s.pts {
			X := px(p.x) + dx
			if py(p.ylo)-py(p.yhi) > 2 {
				vlineW(img, X, py(p.yhi), py(p.ylo), s.col)
				hline(img, X-5, X+5, py(p.yhi), s.col)
				hline(img, X-5, X+5, py(p.ylo), s.col)
			}
			marker(img, X, py(p.y), s.marker, s.col)
		}
	}

	// Legend, top left inside the plot.
	lx, ly := marginL+16, marginT+14
	wmax := 0
	for _, s := range ss {
		wmax = max(wmax, textWidth(s.name))
	}
	lh := glyphH*textScale + 10
	box := image.Rect(lx-8, ly-8, lx+50+wmax+10, ly+len(ss)*lh)
	fill(img, box, colBG)
	rectOutline(img, box, colGrid)
	for i, s := range ss {
		y := ly + i*lh + glyphH*textScale/2 - 2
		line(img, lx, y, lx+36, y, s.col, 2, s.dashed)
		marker(img, lx+18, y, s.marker, s.col)
		drawText(img, lx+48, ly+i*lh, s.name, colText, false)
	}
	return img, nil
}

func msf(d time.Duration) float64 { return float64(d) / 1e6 }

func trimFloat(v float64) string {
	if v >= 1 {
		return fmt.Sprintf("%.0f", v)
	}
	s := fmt.Sprintf("%.3f", v)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	return s
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

func rectOutline(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	hline(img, r.Min.X, r.Max.X, r.Min.Y, c)
	hline(img, r.Min.X, r.Max.X, r.Max.Y, c)
	vline(img, r.Min.X, r.Min.Y, r.Max.Y, c)
	vline(img, r.Max.X, r.Min.Y, r.Max.Y, c)
}

func hline(img *image.RGBA, x0, x1, y int, c color.RGBA) {
	for x := x0; x <= x1; x++ {
		img.SetRGBA(x, y, c)
	}
}

func vline(img *image.RGBA, x, y0, y1 int, c color.RGBA) {
	for y := y0; y <= y1; y++ {
		img.SetRGBA(x, y, c)
	}
}

func vlineW(img *image.RGBA, x, y0, y1 int, c color.RGBA) {
	vline(img, x, y0, y1, c)
	vline(img, x+1, y0, y1, c)
}

// line draws a line of the given width, dashed (10 on, 6 off) if asked.
func line(img *image.RGBA, x0, y0, x1, y1 int, c color.RGBA, width int, dashed bool) {
	dx, dy := float64(x1-x0), float64(y1-y0)
	n := int(math.Max(math.Abs(dx), math.Abs(dy)))
	length := math.Hypot(dx, dy)
	for i := 0; i <= n; i++ {
		t := 0.0
		if n > 0 {
			t = float64(i) / float64(n)
		}
		if dashed && math.Mod(t*length, 16) >= 10 {
			continue
		}
		x, y := float64(x0)+t*dx, float64(y0)+t*dy
		for ox := 0; ox < width; ox++ {
			for oy := 0; oy < width; oy++ {
				img.SetRGBA(int(math.Round(x))+ox-width/2, int(math.Round(y))+oy-width/2, c)
			}
		}
	}
}

func marker(img *image.RGBA, x, y, kind int, c color.RGBA) {
	const r = 5
	for oy := -r; oy <= r; oy++ {
		for ox := -r; ox <= r; ox++ {
			in := false
			switch kind {
			case 0: // circle
				in = ox*ox+oy*oy <= r*r
			case 1: // square
				in = abs(ox) <= r-1 && abs(oy) <= r-1
			case 2: // triangle
				in = oy >= -r && oy <= r-1 && 2*abs(ox) <= oy+r
			case 3: // diamond
				in = abs(ox)+abs(oy) <= r
			}
			if in {
				img.SetRGBA(x+ox, y+oy, c)
			}
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func textWidth(s string) int {
	return len([]rune(s)) * (glyphW + 1) * textScale
}

// drawText writes s with its top left corner at (x, y); vertical text runs
// upwards from (x, y), its top to the left.
func drawText(img *image.RGBA, x, y int, s string, c color.RGBA, vertical bool) {
	for i, r := range []rune(s) {
		g := glyph(r)
		adv := i * (glyphW + 1) * textScale
		for row, bits := range g {
			for col, b := range bits {
				if b != '#' {
					continue
				}
				for sy := 0; sy < textScale; sy++ {
					for sx := 0; sx < textScale; sx++ {
						gx, gy := adv+col*textScale+sx, row*textScale+sy
						if vertical {
							img.SetRGBA(x+gy, y-gx, c)
						} else {
							img.SetRGBA(x+gx, y+gy, c)
						}
					}
				}
			}
		}
	}
}
