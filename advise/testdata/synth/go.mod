module example.com/synth

go 1.26.0
