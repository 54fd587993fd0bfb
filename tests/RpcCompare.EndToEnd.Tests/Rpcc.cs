using RpcCompare.Cli;
using RpcCompare.Testing;

namespace RpcCompare.EndToEnd.Tests;

/// <summary>rpcc run in this process, as the shell would run it, with what it printed.</summary>
internal static class Rpcc
{
    public static async Task<(int ExitCode, string Output, string Error)> RunAsync(string[] arguments)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        var exitCode = await RpccCommands.Create(output, error).Parse(arguments).InvokeAsync().Bounded();
        return (exitCode, output.ToString(), error.ToString());
    }
}
