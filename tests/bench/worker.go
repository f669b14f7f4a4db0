package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// workerResult is the relink of one program through a persistent worker.
type workerResult struct {
	Cold    time.Duration // the first request: every input read and parsed
	Warm    []time.Duration
	WarmCPU []time.Duration // the worker's CPU time in each warm request
	VmHWM   int64           // the worker's peak RSS after all requests, bytes
	Output  []byte
}

// measureWorker starts `cudalink --persistent_worker --worker_protocol=json`,
// as Bazel would (a fresh process, inputs with digests), sends the same
// link request reps+1 times and times each request from the write of the
// request to the read of its response, and the worker's CPU time in it
// (procCPU). The first request fills the input cache; the others are warm
// relinks of an unchanged program or, with changeOne, of a program one of
// whose objects (the middle one) has a new digest in every request, as
// when Bazel rebuilt it: the worker reads and parses that file again (its
// bytes stay the same, so the output can still be compared).
func measureWorker(bin string, args []string, inputs []string, out string, reps int, changeOne bool) (*workerResult, error) {
	type input struct {
		Path   string `json:"path"`
		Digest string `json:"digest"`
	}
	type request struct {
		Arguments []string `json:"arguments"`
		Inputs    []input  `json:"inputs"`
		RequestID int      `json:"requestId"`
	}
	type response struct {
		ExitCode  int    `json:"exitCode"`
		Output    string `json:"output"`
		RequestID int    `json:"requestId"`
	}
	req := request{Arguments: args}
	for _, p := range inputs {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		req.Inputs = append(req.Inputs, input{Path: p, Digest: hex.EncodeToString(sum[:])})
	}
	changed := len(inputs) / 2
	bodyOf := func(i int) ([]byte, error) {
		r := req
		if changeOne && i > 0 {
			r.Inputs = slices.Clone(req.Inputs)
			sum := sha256.Sum256(fmt.Appendf(nil, "%s %d", req.Inputs[changed].Digest, i))
			r.Inputs[changed].Digest = hex.EncodeToString(sum[:])
		}
		body, err := json.Marshal(r)
		return append(body, '\n'), err
	}

	cmd := exec.Command(bin, "--persistent_worker", "--worker_protocol=json")
	cmd.Env = toolEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() {
		stdin.Close()
		cmd.Wait()
	}()
	rd := bufio.NewReaderSize(stdout, 1<<16)
	pid := cmd.Process.Pid
	do := func(i int) (wall, cpu time.Duration, err error) {
		body, err := bodyOf(i)
		if err != nil {
			return 0, 0, err
		}
		cpu0 := procCPU(pid)
		start := time.Now()
		if _, err := stdin.Write(body); err != nil {
			return 0, 0, err
		}
		line, err := rd.ReadBytes('\n')
		wall = time.Since(start)
		cpu = procCPU(pid) - cpu0
		if err != nil {
			return 0, 0, fmt.Errorf("reading the worker's response: %v\n%s", err, stderr.String())
		}
		var resp response
		if err := json.Unmarshal(line, &resp); err != nil {
			return 0, 0, fmt.Errorf("bad response %q: %v", line, err)
		}
		if resp.ExitCode != 0 {
			return 0, 0, fmt.Errorf("worker link failed (exit %d): %s", resp.ExitCode, resp.Output)
		}
		return wall, cpu, nil
	}
	res := &workerResult{}
	if res.Cold, _, err = do(0); err != nil {
		return nil, err
	}
	for i := 1; i <= reps; i++ {
		d, cpu, err := do(i)
		if err != nil {
			return nil, err
		}
		res.Warm = append(res.Warm, d)
		res.WarmCPU = append(res.WarmCPU, cpu)
	}
	res.VmHWM = procHWM(cmd.Process.Pid)
	if res.Output, err = os.ReadFile(out); err != nil {
		return nil, err
	}
	return res, nil
}

// procHWM reads a live process's peak RSS (VmHWM) from /proc; 0 if unknown.
func procHWM(pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	data, _ := io.ReadAll(f)
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}

// procCPU is the CPU time a live process's threads have run so far, from
// the first field of /proc/<pid>/task/*/schedstat (nanoseconds); the
// worker's threads live as long as it does.
func procCPU(pid int) time.Duration {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return 0
	}
	var total time.Duration
	for _, t := range tasks {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
		if err != nil {
			continue
		}
		if f := strings.Fields(string(data)); len(f) > 0 {
			ns, _ := strconv.ParseInt(f[0], 10, 64)
			total += time.Duration(ns)
		}
	}
	return total
}
