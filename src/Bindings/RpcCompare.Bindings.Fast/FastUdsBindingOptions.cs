namespace RpcCompare.Bindings.Fast;

/// <summary>Server-side settings of fast-uds (configuration section <see cref="SectionName"/>).</summary>
public sealed class FastUdsBindingOptions : FastBindingOptions
{
    public const string SectionName = "FastUds";

    /// <summary>The socket's absolute path; null: the host puts it in its private socket directory.</summary>
    public string? Path { get; set; }

    internal override string Section => SectionName;

    internal override void ThrowIfInvalidFast()
    {
        if (string.IsNullOrEmpty(Path) || !System.IO.Path.IsPathRooted(Path))
        {
            throw new InvalidOperationException($"fast-uds needs an absolute socket path ({SectionName}:Path); got '{Path}'.");
        }

        base.ThrowIfInvalidFast();
    }
}
