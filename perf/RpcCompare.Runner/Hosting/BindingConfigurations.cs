using RpcCompare.Bindings;

namespace RpcCompare.Runner.Hosting;

/// <summary>How each binding is configured, in words, for the reports.</summary>
internal static class BindingConfigurations
{
    public const string InlineCompletionsVariable = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";
    public const string PipesInlineLabel = "pipes/inline-io";

    public static string Describe(string binding) => binding switch
    {
        BindingNames.Pipes =>
            "NamedPipeServerStream/NamedPipeClientStream (a Unix domain socket on Linux), PipeOptions.Asynchronous; hand-written " +
            "length-prefixed framing; no security; max message 16 MiB (default); one connection per client, calls answered in order; " +
            "socket completions handed to the thread pool (runtime default)",
        BindingNames.InProc =>
            "direct call to the implementation inside the runner process, on the host's data root: no transport, no serialization",
        _ => "",
    };

    public const string PipesInline =
        "pipes, with " + InlineCompletionsVariable + "=1 in the host: socket completions run inline on the epoll thread, " +
        "so the reply is produced on the I/O thread instead of a thread-pool worker";
}
