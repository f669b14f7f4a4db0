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
	"strconv"
	"strings"
	"time"
)

// workerResult is the relink of one program through a persistent worker.
type workerResult struct {
	Cold   time.Duration // the first request: every input read and parsed
	Warm   []time.Duration
	VmHWM  int64 // the worker's peak RSS after all requests, bytes
	Output []byte
}

// measureWorker starts `cudalink --persistent_worker --worker_protocol=json`,
// as Bazel would (a fresh process, inputs with digests), sends the same
// link request reps+1 times and times each request from the write of the
// request to the read of its response. The first request fills the input
// cache; the others are warm relinks of an unchanged program.
func measureWorker(bin string, args []string, inputs []string, out string, reps int) (*workerResult, error) {
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
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	body = append(body, '\n')

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
	do := func() (time.Duration, error) {
		start := time.Now()
		if _, err := stdin.Write(body); err != nil {
			return 0, err
		}
		line, err := rd.ReadBytes('\n')
		d := time.Since(start)
		if err != nil {
			return 0, fmt.Errorf("reading the worker's response: %v\n%s", err, stderr.String())
		}
		var resp response
		if err := json.Unmarshal(line, &resp); err != nil {
			return 0, fmt.Errorf("bad response %q: %v", line, err)
		}
		if resp.ExitCode != 0 {
			return 0, fmt.Errorf("worker link failed (exit %d): %s", resp.ExitCode, resp.Output)
		}
		return d, nil
	}
	res := &workerResult{}
	if res.Cold, err = do(); err != nil {
		return nil, err
	}
	for i := 0; i < reps; i++ {
		d, err := do()
		if err != nil {
			return nil, err
		}
		res.Warm = append(res.Warm, d)
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
