namespace RpcCompare.Runner.Tests;

/// <summary>What a --quick run must contain: every cell of every suite, and every tuning knob beside the product's setting.</summary>
public static class QuickRunCells
{
    public static readonly string[] Bindings = ["wcf-nettcp", "wcf-uds", "wcf-http", "grpc-tcp", "grpc-uds", "fast-tcp", "fast-uds", "pipes", "inproc"];

    /// <summary>The bindings with asynchronous socket completions (fast-uds blocks in its socket calls; inproc has none).</summary>
    public static readonly string[] InlineIoBindings = [.. Bindings.Where(b => b is not ("inproc" or "fast-uds" or "fast-tcp"))];

    public static readonly string[] Frameworks = ["wcf-nettcp", "wcf-uds", "wcf-http", "grpc-tcp", "grpc-uds"];

    public static TheoryData<string, string, long?> ExpectedCells()
    {
        var cells = new TheoryData<string, string, long?>();
        foreach (var operation in new[] { "Ping", "ReadDirectory", "WriteAt", "WriteAt twice" })
        {
            cells.Add("ops", operation, null);
        }

        foreach (var clients in new long[] { 1, 4, 16, 64 })
        {
            cells.Add("scaling", "Ping", clients);
        }

        foreach (var operation in new[] { "void()", "void(int)", "int()", "int(int)", "void(struct)" })
        {
            cells.Add("shapes", operation, null);
        }

        foreach (var operation in new[] { "bytes", "records", "string", "stream", "stream (download)" })
        {
            foreach (var size in new long[] { 10, 100_000, 10_000_000 })
            {
                cells.Add("payload", operation, size);
            }
        }

        foreach (var size in new long[] { 12, 144, 1_728, 20_736, 248_832 })
        {
            cells.Add("pingpong", "echo", size);
        }

        foreach (var k in new long[] { 1, 4, 16, 64, 256 })
        {
            cells.Add("breakeven", "WriteAt, writes per call k", k);
        }

        foreach (var n in new long[] { 10, 100, 1_000, 10_000 })
        {
            cells.Add("breakeven", "ReadDirectory, entries n", n);
        }

        return cells;
    }

    public static TheoryData<string, long, string, string> ExpectedKnobs()
    {
        var knobs = new TheoryData<string, long, string, string>();
        foreach (var operation in new[] { "Ping · instancing", "ReadDirectory · instancing" })
        {
            foreach (var binding in Frameworks.Take(3))
            {
                knobs.Add(operation, 16, binding, "per-session");
                knobs.Add(operation, 16, binding, "serialized");
            }
        }

        knobs.Add("Ping · HTTP/2 connections", 128, "grpc-tcp", "one-connection");
        knobs.Add("Ping · HTTP/2 connections", 128, "grpc-uds", "one-connection");
        foreach (var clients in new long[] { 1, 16 })
        {
            foreach (var binding in InlineIoBindings)
            {
                knobs.Add("Ping · socket completions", clients, binding, "inline-io");
            }
        }

        return knobs;
    }
}
